import { describe, expect, it } from "vitest";
import { counterKey } from "../../limiter/keys";
import { ALGORITHMS } from "../../limiter/types";
import { monitoringKeys } from "../../monitoring/record/monitoringKeys";
import { limiterRule } from "@/test/support/rules";
import { alertKeys } from "./alertKeys";

describe("alertKeys", () => {
  it("pins the layout: <prefix>{<tenant>}a<kind>...", () => {
    const k = alertKeys("p:", "Tenant01");
    expect([k.claim("refusal_rate", 5, 123), k.claim("client_limit", 10, 7), k.deliveries()]).toEqual([
      "p:{Tenant01}acr5:123",
      "p:{Tenant01}acl10:7",
      "p:{Tenant01}ad",
    ]);
  });

  it("never collides with a limiter or monitoring key: none starts with `a` after the tag", () => {
    const after = (key: string) => key.charAt("p:{Tenant01}".length);
    for (const algorithm of ALGORITHMS) {
      expect(
        after(counterKey("p:", limiterRule({ algorithm, ref: "1" }), { tenantId: "Tenant01", keyId: "KeyId001" })),
      ).not.toBe("a");
    }
    expect(after(monitoringKeys("p:", "Tenant01").seconds("*", 1))).not.toBe("a");
  });

  it("refuses a tenant id that cannot be a hash tag", () => {
    expect(() => alertKeys("p:", "a}b")).toThrow();
  });
});

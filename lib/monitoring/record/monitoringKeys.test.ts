import { describe, expect, it } from "vitest";
import { counterKey } from "../../limiter/keys";
import { ALGORITHMS } from "../../limiter/types";
import { limiterRule } from "@/test/support/rules";
import { clientMember, GLOBAL_SCOPE, monitoringKeys, parseClientMember } from "./monitoringKeys";

describe("monitoringKeys", () => {
  it("pins the layout: <prefix>{<scope>}m<kind>...", () => {
    const k = monitoringKeys("p:", "Tenant01");
    expect([
      k.seconds("*", 7),
      k.minutes("1", 2),
      k.rules(2),
      k.hotKeys("minute", 7),
      k.refusals("hour", 2),
      k.lows("minute", 7),
      k.recent("KeyId001"),
    ]).toEqual([
      "p:{Tenant01}ms*:7",
      "p:{Tenant01}mm1:2",
      "p:{Tenant01}mr:2",
      "p:{Tenant01}mkm:7",
      "p:{Tenant01}mxh:2",
      "p:{Tenant01}mnm:7",
      "p:{Tenant01}mdKeyId001",
    ]);
    expect(monitoringKeys("p:", GLOBAL_SCOPE).tenants(2)).toBe("p:{-}mt:2");
  });

  it("never collides with a limiter counter key: no algorithm is written as `m`", () => {
    for (const algorithm of ALGORITHMS) {
      const key = counterKey("p:", limiterRule({ algorithm, ref: "1" }), { tenantId: "Tenant01", keyId: "KeyId001" });
      expect(key.charAt("p:{Tenant01}".length)).not.toBe("m");
    }
  });

  it("refuses a scope that cannot be a hash tag", () => {
    expect(() => monitoringKeys("p:", "a}b")).toThrow();
  });

  it("client members round-trip in tenant and global scopes", () => {
    expect(parseClientMember("Tenant01", clientMember("Tenant01", "Tenant01", "KeyId001"))).toEqual({
      tenantId: "Tenant01",
      keyId: "KeyId001",
    });
    expect(parseClientMember(GLOBAL_SCOPE, clientMember(GLOBAL_SCOPE, "Tenant01", "KeyId001"))).toEqual({
      tenantId: "Tenant01",
      keyId: "KeyId001",
    });
  });
});

import { describe, expect, it } from "vitest";
import { callerOf } from "../../monitoring/record/callerMember";
import { jwtMonitoringId } from "./hostCaller";

describe("jwtMonitoringId", () => {
  it("shows a short, plain subject as ~<sub>", () => {
    expect(jwtMonitoringId("auth0|64f1c2")).toBe("~auth0|64f1c2");
    expect(jwtMonitoringId("alice@example.com")).toBe("~alice@example.com");
  });

  it("hashes a subject with a monitoring separator or over 64 characters", () => {
    for (const subject of ["users/42", "tenant:7", "x".repeat(65), "caf\u00e9"]) {
      const id = jwtMonitoringId(subject);
      expect(id).toMatch(/^~#[A-Za-z0-9_-]{22}$/);
      expect(jwtMonitoringId(subject)).toBe(id);
    }
    expect(jwtMonitoringId("users/42")).not.toBe(jwtMonitoringId("users/43"));
  });
});

describe("jwtMonitoringId and the hot-callers sets", () => {
  it("every id it gives is a JWT caller there (lib/monitoring/record/callerMember.ts)", () => {
    for (const subject of ["auth0|64f1c2", "alice@example.com", "users/42", "x".repeat(200), "caf\u00e9"])
      expect(callerOf("Tenant01", jwtMonitoringId(subject), undefined)?.kind).toBe("jwt");
  });
});

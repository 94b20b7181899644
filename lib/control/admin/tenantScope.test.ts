import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors";
import type { Actor } from "../../policy/audit/auditLog";
import { assertInScope, assertUnscopedAdmin, scopeRefusal } from "./tenantScope";

const limited: Actor = { id: "token:ci", role: "admin", tenantId: "tenantAA" };
const unlimited: Actor = { id: "token:ops", role: "admin", tenantId: null };
const request = new Request("http://test.local/api/admin/tenants");

describe("tenant scope", () => {
  it.each([
    ["an unlimited actor, any tenant", unlimited, "tenantBB", false],
    ["an unlimited actor, instance-wide", unlimited, null, false],
    ["an operator (no limit field), instance-wide", { id: "operator:a@b.c", role: "admin" } as Actor, null, false],
    ["a limited actor, its tenant", limited, "tenantAA", false],
    ["a limited actor, another tenant", limited, "tenantBB", true],
    ["a limited actor, instance-wide", limited, null, true],
  ])("%s → refused: %s", (_, actor, tenant, refused) => {
    expect(scopeRefusal(actor, tenant) !== null).toBe(refused);
  });

  it("assertInScope asks the route's tenant only of limited actors, and refuses with 403", async () => {
    let asked = 0;
    const tenantOf = () => {
      asked++;
      return "tenantBB";
    };
    await assertInScope(unlimited, request, {}, tenantOf);
    expect(asked).toBe(0);
    const error = await assertInScope(limited, request, {}, tenantOf).catch((e: unknown) => e);
    expect(asked).toBe(1);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(403);
    await expect(assertInScope(limited, request, { tenantId: "tenantAA" })).resolves.toBeUndefined();
  });

  it("token management needs an admin without a tenant limit", () => {
    expect(() => assertUnscopedAdmin(unlimited)).not.toThrow();
    expect(() => assertUnscopedAdmin({ id: "operator:a@b.c", role: "admin" })).not.toThrow();
    expect(() => assertUnscopedAdmin(limited)).toThrow(AppError);
    expect(() => assertUnscopedAdmin({ id: "token:v", role: "viewer" })).toThrow(AppError);
  });
});

describe("scopeRefusal for an operator limited to tenants", () => {
  const operator = { id: "operator:ops@example.com", role: "admin" as const, tenantIds: ["t1", "t2"] };
  it("passes its tenants and refuses others and instance-wide calls", () => {
    expect(scopeRefusal(operator, "t1")).toBeNull();
    expect(scopeRefusal(operator, "t2")).toBeNull();
    expect(scopeRefusal(operator, "t3")).toBe(
      "This operator is limited to tenants t1, t2: other tenants' resources are refused.",
    );
    expect(scopeRefusal(operator, null)).toBe(
      "This operator is limited to tenants t1, t2: instance-wide calls are refused.",
    );
  });
  it("an empty list is no limit", () => {
    expect(scopeRefusal({ ...operator, tenantIds: [] }, null)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { AppError } from "../http/errors";
import { baseAction, isRevertibleAction, revertAction, revertPlan, type RevertableEvent } from "./revertPlan";

const event = (fields: Partial<RevertableEvent>): RevertableEvent => ({ id: "7", action: "rules.replace", target: "tenant:AAAAAAAA", before: [], after: [], ...fields });
const keyView = (revokedAt: string | null) => ({ id: "KKKKKKKK", name: "k", revokedAt });
const REVOKED_AT = "2026-12-01T10:00:00.000Z";

function refusal(fields: Partial<RevertableEvent>): AppError {
  try {
    revertPlan(event(fields));
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("revert actions", () => {
  it("a revert of a revert is audited under the same `<base>.revert` action", () => {
    expect(baseAction("rules.replace.revert.revert")).toBe("rules.replace");
    expect(revertAction("rules.replace")).toBe("rules.replace.revert");
    expect(revertAction("rules.replace.revert")).toBe("rules.replace.revert");
  });

  it.each([
    ["rules.replace", true],
    ["rules.replace.revert", true],
    ["key.revoke", true],
    ["key.revoke.revert", true],
    ["tenant.create", false],
    ["key.create", false],
    ["operator.update", false],
    ["rules", false],
  ])("%s revertible: %s", (action, revertible) => {
    expect(isRevertibleAction(action)).toBe(revertible);
  });
});

describe("revertPlan: what a revert restores", () => {
  it("a tenant's rules change re-applies its before list to the tenant", () => {
    const before = [{ name: "per-key", limit: 5, windowMs: 1000 }];
    expect(revertPlan(event({ before }))).toEqual({ kind: "rules", owner: { kind: "tenant", tenantId: "AAAAAAAA" }, rules: before });
  });

  it("a key's overrides change (or its revert) re-applies its before list to the key", () => {
    expect(revertPlan(event({ action: "rules.replace.revert", target: "key:KKKKKKKK", before: [] }))).toEqual({ kind: "rules", owner: { kind: "key", keyId: "KKKKKKKK" }, rules: [] });
  });

  it("a revocation un-revokes, tied to the revocation time it recorded", () => {
    expect(revertPlan(event({ action: "key.revoke", target: "key:KKKKKKKK", before: keyView(null), after: keyView(REVOKED_AT) }))).toEqual({ kind: "unrevoke_key", keyId: "KKKKKKKK", revokedAt: REVOKED_AT });
  });

  it("an un-revoke (the revert of a revocation) revokes again", () => {
    expect(revertPlan(event({ action: "key.revoke.revert", target: "key:KKKKKKKK", before: keyView(REVOKED_AT), after: keyView(null) }))).toEqual({ kind: "revoke_key", keyId: "KKKKKKKK" });
  });
});

describe("revertPlan: 409 conflict, saying why", () => {
  it.each([
    ["tenant creation", { action: "tenant.create", before: null }, /tenants cannot be deleted/],
    ["key creation", { action: "key.create", target: "key:KKKKKKKK", before: null }, /revoke the key instead/],
    ["operator changes", { action: "operator.update", target: "operator:abc" }, /operator changes/],
    ["an unknown action", { action: "something.else" }, /only rule changes and key revocations/],
    ["a rules event without a before list", { before: null }, /no earlier rule list/],
    ["a rules event on an odd target", { target: "operator:abc" }, /neither a tenant nor a key/],
    ["a malformed target id", { target: "tenant:../x" }, /neither a tenant nor a key/],
    ["a revocation without its states", { action: "key.revoke", target: "key:KKKKKKKK", before: null, after: null }, /revocation state/],
  ])("%s", (_, fields, message) => {
    const error = refusal(fields);
    expect(error.code).toBe("conflict");
    expect(error.message).toMatch(/^Audit event 7 \(/);
    expect(error.message).toMatch(message);
  });
});

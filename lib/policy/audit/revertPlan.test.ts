import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors";
import {
  baseAction,
  isRevertible,
  isRevertibleAction,
  revertAction,
  revertPlan,
  type RevertableEvent,
} from "./revertPlan";

const event = (fields: Partial<RevertableEvent>): RevertableEvent => ({
  id: "7",
  action: "rules.replace",
  target: "tenant:AAAAAAAA",
  before: [],
  after: [],
  ...fields,
});
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
    ["key.revoke", false],
    ["key.revoke.revert", true],
    ["key.expiry", true],
    ["key.expiry.revert", true],
    ["tenant.create", false],
    ["key.create", false],
    ["operator.update", false],
    ["rules", false],
    ["upstream.replace", true],
    ["upstream.delete", true],
    ["upstream.delete.revert", true],
    ["access.replace", true],
    ["access.replace.revert", true],
  ])("%s revertible: %s", (action, revertible) => {
    expect(isRevertibleAction(action)).toBe(revertible);
  });
});

describe("revertPlan: what a revert restores", () => {
  it("a tenant's rules change re-applies its before list to the tenant", () => {
    const before = [{ name: "per-key", limit: 5, windowMs: 1000 }];
    expect(revertPlan(event({ before }))).toEqual({
      kind: "rules",
      owner: { kind: "tenant", tenantId: "AAAAAAAA" },
      rules: before,
    });
  });

  it("a key's overrides change (or its revert) re-applies its before list to the key", () => {
    expect(revertPlan(event({ action: "rules.replace.revert", target: "key:KKKKKKKK", before: [] }))).toEqual({
      kind: "rules",
      owner: { kind: "key", keyId: "KKKKKKKK" },
      rules: [],
    });
  });

  it("a revocation is never undone: a revoked key stays dead (its secret may have leaked), and the refusal says to create a new key", () => {
    const revocation = event({
      action: "key.revoke",
      target: "key:KKKKKKKK",
      before: keyView(null),
      after: keyView(REVOKED_AT),
    });
    expect(refusal(revocation).message).toMatch(
      /a revoked key stays revoked, since its secret may have leaked; nothing was re-created\. Create a new key/,
    );
    expect(isRevertible(revocation)).toBe(false);
    // Nor a re-revocation recorded as a revert.
    expect(isRevertible({ ...revocation, action: "key.revoke.revert" })).toBe(false);
  });

  it("an un-revoke recorded before revocations became final (the revert of a revocation) revokes again", () => {
    const unrevoke = event({
      action: "key.revoke.revert",
      target: "key:KKKKKKKK",
      before: keyView(REVOKED_AT),
      after: keyView(null),
    });
    expect(revertPlan(unrevoke)).toEqual({ kind: "revoke_key", keyId: "KKKKKKKK" });
    expect(isRevertible(unrevoke)).toBe(true);
  });

  it("an access-list change (or its revert) replaces the lists with the earlier ones", () => {
    const before = { allow: ["10.0.0.0/8"], deny: [] };
    expect(revertPlan(event({ action: "access.replace", before, after: { allow: [], deny: [] } }))).toEqual({
      kind: "access",
      tenantId: "AAAAAAAA",
      lists: before,
    });
    expect(revertPlan(event({ action: "access.replace.revert", before, after: { allow: [], deny: [] } }))).toEqual({
      kind: "access",
      tenantId: "AAAAAAAA",
      lists: before,
    });
  });

  it("an identity change (or its revert) sets the earlier hosts and callers again", () => {
    const before = { hosts: ["api.example.com"], apiKeys: true, jwt: null, anonymous: false };
    for (const action of ["identity.replace", "identity.replace.revert"])
      expect(revertPlan(event({ action, before, after: { ...before, hosts: [] } }))).toEqual({
        kind: "identity",
        tenantId: "AAAAAAAA",
        identity: before,
      });
    expect(() => revertPlan(event({ action: "identity.replace", before: null }))).toThrow(/no earlier identity/);
  });

  it("an upstream set where there was none removes it again", () => {
    expect(
      revertPlan(event({ action: "upstream.replace", before: null, after: { url: "http://a", timeoutMs: 100 } })),
    ).toEqual({ kind: "upstream", tenantId: "AAAAAAAA", upstream: null });
  });

  it("an upstream replaced or removed sets the earlier one again", () => {
    const before = { url: "http://a", timeoutMs: 100 };
    expect(revertPlan(event({ action: "upstream.delete", before, after: null }))).toEqual({
      kind: "upstream",
      tenantId: "AAAAAAAA",
      upstream: before,
    });
    expect(revertPlan(event({ action: "upstream.replace.revert", before, after: null }))).toEqual({
      kind: "upstream",
      tenantId: "AAAAAAAA",
      upstream: before,
    });
  });
});

describe("revertPlan: key expiry", () => {
  it("an expiry change (or its revert) sets the before expiry again, null included", () => {
    const at = "2027-01-01T00:00:00.000Z";
    expect(
      revertPlan(
        event({ action: "key.expiry", target: "key:KKKKKKKK", before: { expiresAt: at }, after: { expiresAt: null } }),
      ),
    ).toEqual({ kind: "key_expiry", keyId: "KKKKKKKK", expiresAt: at });
    expect(
      revertPlan(
        event({
          action: "key.expiry.revert",
          target: "key:KKKKKKKK",
          before: { expiresAt: null },
          after: { expiresAt: at },
        }),
      ),
    ).toEqual({ kind: "key_expiry", keyId: "KKKKKKKK", expiresAt: null });
  });

  it("refuses an event without a readable before expiry, or not aimed at a key", () => {
    expect(refusal({ action: "key.expiry", target: "key:KKKKKKKK", before: { name: "k" } }).message).toMatch(
      /expiry before the change/,
    );
    expect(refusal({ action: "key.expiry", target: "key:KKKKKKKK", before: { expiresAt: "soon" } }).message).toMatch(
      /expiry before the change/,
    );
    expect(refusal({ action: "key.expiry", target: "tenant:AAAAAAAA", before: { expiresAt: null } }).message).toMatch(
      /is not a key/,
    );
  });
});

describe("revertPlan: 409 conflict, saying why", () => {
  it.each([
    ["tenant creation", { action: "tenant.create", before: null }, /tenants cannot be deleted/],
    ["key creation", { action: "key.create", target: "key:KKKKKKKK", before: null }, /revoke the key instead/],
    ["operator changes", { action: "operator.update", target: "operator:abc" }, /operator changes/],
    [
      "a key's counter reset",
      { action: "key.counters.reset", target: "key:KKKKKKKK" },
      /reset counters cannot be restored/,
    ],
    ["an identifier's counter reset", { action: "identifier.counters.reset" }, /reset counters cannot be restored/],
    [
      "an unknown action",
      { action: "something.else" },
      /only rule and tier changes, key revocations, key expiry and tier changes, upstream, access-list and identity changes/,
    ],
    ["a rules event without a before list", { before: null }, /no earlier rule list/],
    ["a rules event on an odd target", { target: "operator:abc" }, /neither a tenant nor a key/],
    ["a malformed target id", { target: "tenant:../x" }, /neither a tenant nor a key/],
    [
      "an access-list event on a key",
      { action: "access.replace", target: "key:KKKKKKKK", before: { allow: [], deny: [] } },
      /is not a tenant/,
    ],
    [
      "an access-list event without earlier lists",
      { action: "access.replace", before: null },
      /no earlier access lists/,
    ],
    [
      "an upstream event on a key",
      { action: "upstream.replace", target: "key:KKKKKKKK", before: null },
      /is not a tenant/,
    ],
    ["an upstream event with a list as before", { action: "upstream.delete", before: [] }, /no earlier upstream/],
    [
      "a revocation without its states",
      { action: "key.revoke", target: "key:KKKKKKKK", before: null, after: null },
      /revocation state/,
    ],
  ])("%s", (_, fields, message) => {
    const error = refusal(fields);
    expect(error.code).toBe("conflict");
    expect(error.message).toMatch(/^Audit event 7 \(/);
    expect(error.message).toMatch(message);
  });
});

describe("revertPlan: tiers", () => {
  it("a tier's rules (PUT or DELETE) re-apply the earlier list to that tier", () => {
    const before = [{ name: "per-key" }];
    for (const action of ["rules.replace", "tier.delete", "tier.delete.revert"])
      expect(revertPlan(event({ action, target: "tier:AAAAAAAA/pro", before }))).toEqual({
        kind: "rules",
        owner: { kind: "tier", tenantId: "AAAAAAAA", tier: "pro" },
        rules: before,
      });
  });

  it("a key's tier change puts the key back in its earlier tier (or none)", () => {
    const target = "key:KKKKKKKK";
    expect(revertPlan(event({ action: "key.tier", target, before: { tier: "free" } }))).toEqual({
      kind: "key_tier",
      keyId: "KKKKKKKK",
      tier: "free",
    });
    expect(revertPlan(event({ action: "key.tier", target, before: { tier: null } }))).toEqual({
      kind: "key_tier",
      keyId: "KKKKKKKK",
      tier: null,
    });
    expect(refusal({ action: "key.tier", target, before: {} }).code).toBe("conflict");
    expect(revertPlan(event({ action: "key.billingDay", target, before: { billingDay: 15 } }))).toEqual({
      kind: "key_billing_day",
      keyId: "KKKKKKKK",
      billingDay: 15,
    });
    expect(revertPlan(event({ action: "key.billingDay", target, before: { billingDay: null } }))).toEqual({
      kind: "key_billing_day",
      keyId: "KKKKKKKK",
      billingDay: null,
    });
    expect(refusal({ action: "key.billingDay", target, before: { billingDay: 40 } }).code).toBe("conflict");
    expect(refusal({ action: "tier.delete", target: "tenant:AAAAAAAA" }).code).toBe("conflict");
  });
});

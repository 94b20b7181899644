/**
 * A tenant's policy as one document (policyDocumentSchema.ts): `exportPolicy` reads it with its
 * ETag; `applyPolicy` makes the tenant's policy what a document says in ONE transaction, under the
 * tenant's row lock: every changed part through its own store's `...In` writer, so each writes its
 * usual audit event (rules.replace, tier.delete, key.tier, overrides.replace, access.replace,
 * identity.replace, upstream.replace / upstream.delete, alerts.replace / alerts.delete) by the
 * actor, and an unchanged part writes nothing: applying the policy as it is changes nothing and
 * records nothing. `dryRun` does all of it and rolls back, so it answers exactly what an apply
 * would (including the stores' own refusals). The caller announces the tenant after a commit that
 * changed something (lib/policy/changes), so every instance has it within 1 s.
 *
 * Errors (AppError): `not_found` (unknown tenant); `precondition_failed` (412) when `ifMatch` names
 * no longer the current ETag; `invalid` (422) with per-field paths for a key name that matches no
 * live key (keys are created, not declared), overrides of a rule that is not one of the document's
 * identifier rules, alerts without a webhook URL where none is stored, and a store's own refusals
 * (prefixed by the part's path); `conflict` (409) for a host another tenant holds.
 */
import { getDb } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { AppError, type FieldErrors } from "../../http/errors";
import type { Actor } from "../../policy/audit/auditLog";
import { lockTenant, noTenant } from "../../policy/tenants/tenantLock";
import { fromColumns } from "../../policy/rules/storedRule";
import type { Rule } from "../../policy/rules/ruleSchema";
import { replaceRulesIn } from "../../policy/rules/ruleStore";
import { setKeyBillingDayIn, setKeyTierIn } from "../../policy/keys/keyStore";
import { overrideFromRow, replaceOverridesIn } from "../../policy/overrides/overrideStore";
import type { IdentifierOverride } from "../../policy/overrides/overrideSchema";
import { replaceAccessListsIn } from "../../policy/access/accessListStore";
import { EMPTY_ACCESS_LISTS } from "../../policy/access/accessListSchema";
import { identityFromRows, putIdentityIn } from "../../policy/identity/identityStore";
import { deleteUpstreamIn, putUpstreamIn } from "../../policy/upstreams/upstreamStore";
import { deleteAlertSettingsIn, putAlertSettingsIn, readAlertSettingsIn } from "../alerts/alertStore";
import { changedParts, policyEtag, ifMatchHolds, storedForm, type KeyPolicy, type PolicyState } from "./policyDiff";
import type { PolicyDocument } from "./policyDocumentSchema";
import type { ExportedPolicy } from "./policyAnswers";

type Tx = Prisma.TransactionClient;

interface Snapshot {
  state: PolicyState;
  document: ExportedPolicy;
  etag: string;
  /** Live key id → how the document names it. */
  refOf: Map<string, string>;
  /** A document's key name → key id; null for a name two live keys share. */
  idOf: Map<string, string | null>;
}

const TX_OPTIONS = { maxWait: 10_000, timeout: 30_000 };

async function readSnapshot(tx: Tx, tenantId: string): Promise<Snapshot> {
  const [ruleRows, keys, overrideRows, access, identityRow, hostRows, upstream, alerts] = await Promise.all([
    tx.rule.findMany({ where: { tenantId }, orderBy: { position: "asc" } }),
    tx.apiKey.findMany({
      where: { tenantId, revokedAt: null },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, name: true, tier: true, billingDay: true },
    }),
    tx.identifierOverride.findMany({ where: { tenantId }, orderBy: [{ rule: "asc" }, { position: "asc" }] }),
    tx.accessLists.findUnique({ where: { tenantId }, select: { allow: true, deny: true } }),
    tx.tenantIdentity.findUnique({ where: { tenantId }, select: { apiKeys: true, anonymous: true, jwt: true } }),
    tx.tenantHost.findMany({ where: { tenantId }, select: { host: true }, orderBy: { host: "asc" } }),
    tx.upstream.findUnique({ where: { tenantId }, select: { url: true, timeoutMs: true, signingSecret: true } }),
    readAlertSettingsIn(tx, tenantId),
  ]);

  const named = new Map<string, number>();
  for (const k of keys) named.set(k.name, (named.get(k.name) ?? 0) + 1);
  const refOf = new Map<string, string>();
  const idOf = new Map<string, string | null>();
  for (const k of keys) {
    const unique = named.get(k.name) === 1;
    refOf.set(k.id, unique ? k.name : k.id);
    idOf.set(k.name, unique ? k.id : null);
  }
  for (const k of keys) idOf.set(k.id, k.id);

  const rules: Rule[] = [];
  const tiers: Record<string, Rule[]> = {};
  const keyRules = new Map<string, Rule[]>();
  for (const row of ruleRows) {
    const rule = fromColumns(row);
    if (row.keyId !== null) {
      if (refOf.has(row.keyId)) keyRules.set(row.keyId, [...(keyRules.get(row.keyId) ?? []), rule]);
    } else if (row.tier !== null) (tiers[row.tier] ??= []).push(rule);
    else rules.push(rule);
  }
  const stateKeys: Record<string, KeyPolicy> = {};
  const docKeys: ExportedPolicy["keys"] = {};
  for (const k of keys) {
    const policy = { tier: k.tier, rules: keyRules.get(k.id) ?? [] };
    stateKeys[k.id] = { ...policy, billingDay: k.billingDay };
    docKeys[refOf.get(k.id)!] = k.billingDay !== null ? { ...policy, billingDay: k.billingDay } : policy;
  }
  const overrides: Record<string, IdentifierOverride[]> = {};
  for (const row of overrideRows) (overrides[row.rule] ??= []).push(overrideFromRow(row));

  const state: PolicyState = {
    rules,
    keys: stateKeys,
    tiers,
    overrides,
    access: access ? { allow: access.allow, deny: access.deny } : { ...EMPTY_ACCESS_LISTS },
    identity: identityFromRows(
      identityRow,
      hostRows.map((h) => h.host),
    ),
    upstream: upstream
      ? { url: upstream.url, timeoutMs: upstream.timeoutMs, signRequests: upstream.signingSecret !== null }
      : null,
    alerts:
      alerts && alerts.webhookUrl !== undefined
        ? {
            webhookUrl: alerts.webhookUrl,
            refusalRate: alerts.refusalRate,
            clientLimit: alerts.clientLimit,
            billing: alerts.billing,
          }
        : null,
  };
  const document: ExportedPolicy = {
    rules,
    keys: docKeys,
    tiers,
    overrides,
    access: state.access,
    identity: state.identity,
    upstream: state.upstream,
    alerts: alerts
      ? {
          webhookUrlHint: alerts.webhookUrlHint,
          refusalRate: alerts.refusalRate,
          clientLimit: alerts.clientLimit,
          billing: alerts.billing,
        }
      : null,
  };
  return { state, document, etag: policyEtag(document), refOf, idOf };
}

/** GET .../policy: the document and its ETag; 404 for an unknown tenant. */
export async function exportPolicy(tenantId: string): Promise<{ document: ExportedPolicy; etag: string }> {
  return getDb().$transaction(async (tx) => {
    const tenant = await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
    if (!tenant) throw noTenant(tenantId);
    const { document, etag } = await readSnapshot(tx, tenantId);
    return { document, etag };
  }, TX_OPTIONS);
}

/** The state a (parsed) document asks for, resolved against the tenant's live keys and stored secrets. */
function desiredState(doc: PolicyDocument, snap: Snapshot): PolicyState {
  const errors: FieldErrors = {};
  const keys: Record<string, KeyPolicy> = {};
  for (const [ref, policy] of Object.entries(doc.keys)) {
    const id = snap.idOf.get(ref);
    if (id === undefined)
      errors[`keys.${ref}`] = [
        `this tenant has no live API key named ${JSON.stringify(ref)}: keys are created through the API (POST /api/admin/tenants/{id}/keys), not declared in a policy document`,
      ];
    else if (id === null)
      errors[`keys.${ref}`] = [`more than one live API key is named ${JSON.stringify(ref)}: name each by its id`];
    else keys[id] = { tier: policy.tier, rules: policy.rules.map(storedForm), billingDay: policy.billingDay ?? null };
  }
  const identifierRules = new Set(doc.rules.filter((r) => r.scope === "identifier").map((r) => r.name));
  const overrides: Record<string, IdentifierOverride[]> = {};
  for (const [rule, list] of Object.entries(doc.overrides)) {
    if (list.length === 0) continue;
    if (!identifierRules.has(rule))
      errors[`overrides.${rule}`] = [
        `${JSON.stringify(rule)} is not one of the document's identifier rules: only identifier rules have overrides`,
      ];
    else overrides[rule] = list;
  }
  const tiers: Record<string, Rule[]> = {};
  for (const [tier, rules] of Object.entries(doc.tiers)) if (rules.length > 0) tiers[tier] = rules.map(storedForm);
  let alerts: PolicyState["alerts"] = null;
  if (doc.alerts) {
    const webhookUrl = doc.alerts.webhookUrl ?? snap.state.alerts?.webhookUrl;
    if (webhookUrl === undefined)
      errors["alerts.webhookUrl"] = [
        "webhookUrl is required: this tenant has no alerts yet (an export never shows the URL, it is a secret)",
      ];
    else
      alerts = {
        webhookUrl,
        refusalRate: doc.alerts.refusalRate,
        clientLimit: doc.alerts.clientLimit,
        billing: doc.alerts.billing,
      };
  }
  const first = Object.entries(errors)[0];
  if (first) throw new AppError("invalid", `The policy document is invalid (${first[0]}: ${first[1][0]}).`, { errors });
  return {
    rules: doc.rules.map(storedForm),
    keys,
    tiers,
    overrides,
    access: doc.access,
    identity: { ...doc.identity, hosts: [...doc.identity.hosts].sort() },
    upstream: doc.upstream
      ? { url: doc.upstream.url, timeoutMs: doc.upstream.timeoutMs, signRequests: doc.upstream.signRequests }
      : null,
    alerts,
  };
}

/** Runs one part's writer; a store's 422 names its fields under the part's path. */
async function inPart<T>(path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid" && error.extra.errors) {
      const errors: FieldErrors = {};
      for (const [field, messages] of Object.entries(error.extra.errors))
        errors[field ? `${path}.${field}` : path] = messages;
      throw new AppError("invalid", error.message, { ...error.extra, errors });
    }
    throw error;
  }
}

async function writeChanges(
  tx: Tx,
  actor: Actor,
  tenantId: string,
  snap: Snapshot,
  want: PolicyState,
  changed: string[],
): Promise<void> {
  const idOfRef = new Map([...snap.refOf].map(([id, ref]) => [ref, id]));
  const identifierRules = new Set(want.rules.filter((r) => r.scope === "identifier").map((r) => r.name));
  for (const part of changed) {
    const [head, name, field] = splitPart(part);
    await inPart(part, async () => {
      if (head === "rules") await replaceRulesIn(tx, actor, { kind: "tenant", tenantId }, want.rules);
      else if (head === "tiers") {
        const rules = want.tiers[name] ?? [];
        await replaceRulesIn(tx, actor, { kind: "tier", tenantId, tier: name }, rules, {
          action: rules.length === 0 ? "tier.delete" : undefined,
        });
      } else if (head === "keys") {
        const keyId = idOfRef.get(name)!;
        if (field === "tier") await setKeyTierIn(tx, actor, keyId, want.keys[keyId]!.tier);
        else if (field === "billingDay")
          await setKeyBillingDayIn(tx, actor, keyId, want.keys[keyId]!.billingDay ?? null);
        else await replaceRulesIn(tx, actor, { kind: "key", keyId }, want.keys[keyId]!.rules);
      } else if (head === "overrides") {
        // A rule that is gone (or no longer identifier) lost its overrides with its rules' replacement.
        if (identifierRules.has(name)) await replaceOverridesIn(tx, actor, tenantId, name, want.overrides[name] ?? []);
      } else if (head === "access") await replaceAccessListsIn(tx, actor, tenantId, want.access);
      else if (head === "identity") await putIdentityIn(tx, actor, tenantId, want.identity);
      else if (head === "upstream") {
        if (want.upstream) await putUpstreamIn(tx, actor, tenantId, { ...want.upstream, rotateSecret: false });
        else await deleteUpstreamIn(tx, actor, tenantId);
      } else if (head === "alerts") {
        if (want.alerts) await putAlertSettingsIn(tx, actor, tenantId, { ...want.alerts, rotateSecret: false });
        else await deleteAlertSettingsIn(tx, actor, tenantId);
      }
    });
  }
}

/** `keys.alice.tier` → ["keys", "alice", "tier"]; a key name may hold dots, the field is the last part. */
function splitPart(part: string): [string, string, string] {
  const dot = part.indexOf(".");
  if (dot < 0) return [part, "", ""];
  const head = part.slice(0, dot);
  const rest = part.slice(dot + 1);
  if (head !== "keys") return [head, rest, ""];
  const last = rest.lastIndexOf(".");
  return [head, rest.slice(0, last), rest.slice(last + 1)];
}

class DryRunDone extends Error {
  constructor(readonly changed: string[]) {
    super("dry run: rolled back");
  }
}

export interface AppliedPolicy {
  changed: string[];
  /** The ETag of the policy after the apply (the current one for a dry run or no change). */
  etag: string;
}

/**
 * PUT .../policy: makes the tenant's policy what `doc` (parsed by policyDocumentSchema) says.
 * `ifMatch`: the request's If-Match header (null: none).
 */
export async function applyPolicy(
  actor: Actor,
  tenantId: string,
  doc: PolicyDocument,
  options: { dryRun: boolean; ifMatch: string | null },
): Promise<AppliedPolicy> {
  let currentEtag = "";
  try {
    return await getDb().$transaction(async (tx) => {
      await lockTenant(tx, tenantId);
      const snap = await readSnapshot(tx, tenantId);
      currentEtag = snap.etag;
      if (!ifMatchHolds(options.ifMatch, snap.etag))
        throw new AppError(
          "precondition_failed",
          "The tenant's policy changed since this document was exported (If-Match names another ETag): export it again, merge, and apply.",
          { headers: { etag: snap.etag } },
        );
      const want = desiredState(doc, snap);
      const refOf = (keyId: string) => snap.refOf.get(keyId)!;
      const changed = changedParts(snap.state, want, refOf);
      if (changed.length === 0) return { changed, etag: snap.etag };
      await writeChanges(tx, actor, tenantId, snap, want, changed);
      if (options.dryRun) throw new DryRunDone(changed);
      return { changed, etag: (await readSnapshot(tx, tenantId)).etag };
    }, TX_OPTIONS);
  } catch (error) {
    if (error instanceof DryRunDone) return { changed: error.changed, etag: currentEtag };
    // A concurrent change of another tenant took one of these hosts first.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      throw new AppError(
        "conflict",
        "A host of this document was just taken by another tenant: a host routes to one tenant only.",
      );
    throw error;
  }
}

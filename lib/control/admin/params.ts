/**
 * Path parameters of admin routes: a value that cannot be an id names nothing (404). The answer
 * says what an id looks like instead of quoting the value: what lands in an id's place by mistake
 * may be a secret (a full API key, a password pasted into the wrong field).
 */
import { ID_LENGTH } from "../../common/apiKeyFormat";
import { RULE_NAME_MAX, RULE_NAME_PATTERN } from "../../common/fieldLimits";
import { AppError } from "../../http/errors";
import { isId } from "../../common/ids";
import { AUDIT_ID_PATTERN } from "./querySchemas";
import { tierNameSchema } from "../../policy/tiers/tierName";
import { parseInput } from "../../http/validate";

const notAnId = (what: string, shape: string) => new AppError("not_found", `No ${what} with this id: ${shape}.`);

export function tenantIdParam(value: string): string {
  if (!isId(value)) throw notAnId("tenant", `a tenant id is ${ID_LENGTH} letters or digits`);
  return value;
}

export function keyIdParam(value: string): string {
  if (!isId(value))
    throw notAnId("API key", `an API key id is ${ID_LENGTH} letters or digits (a full key is not its id)`);
  return value;
}

/** Operator ids are cuids (lower-case letters and digits). */
export const OPERATOR_ID_PATTERN = /^[a-z0-9]{1,64}$/;

export function operatorIdParam(value: string): string {
  if (!OPERATOR_ID_PATTERN.test(value)) throw notAnId("operator", "an operator id is lower-case letters and digits");
  return value;
}

/** API token ids are cuids, like operator ids. */
export function tokenIdParam(value: string): string {
  if (!OPERATOR_ID_PATTERN.test(value)) throw notAnId("API token", "an API token id is lower-case letters and digits");
  return value;
}

export function auditIdParam(value: string): string {
  if (!AUDIT_ID_PATTERN.test(value)) throw notAnId("audit event", "an audit event id is a positive whole number");
  return value;
}

/** Rule names (lib/common/fieldLimits.ts): a value that cannot be one names no rule. */
export function ruleNameParam(value: string): string {
  if (!RULE_NAME_PATTERN.test(value))
    throw notAnId("rule", `a rule name is 1-${RULE_NAME_MAX} characters of a-z, 0-9, _ and -`);
  return value;
}

/**
 * Tier names (lib/policy/tiers/tierName.ts) in a path: a 422 naming `tier`, not a 404, since a tier
 * is made by naming it (PUT .../tiers/{tier}/rules): the name is input, not an id.
 */
export function tierNameParam(value: string): string {
  return parseInput(tierNameSchema, value, ["tier"]);
}

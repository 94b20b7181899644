/**
 * Tier (plan) names and the bodies that name a tier (CONTRACT.md, "Tiers"). Browser-safe: the
 * dashboard's forms import these schemas too.
 *
 * - A tier name is `^[a-z0-9][a-z0-9_-]{0,63}$` (the rule-name shape); anything else is a 422
 *   naming `tier` in a body, and names no tier (404) in a path (lib/control/admin/params.ts).
 * - A key may name a tier that has no rules yet: like a JWT's `tierClaim`, which may name any plan,
 *   such a key simply has the tenant's rules until the tier gets some. The tiers list shows tiers
 *   with rules and tiers named by live keys (lib/policy/tiers/tierStore.ts).
 */
import { z } from "zod";
import { RULE_NAME_MAX, RULE_NAME_PATTERN } from "../../common/fieldLimits";

export const TIER_NAME_MAX = RULE_NAME_MAX;
export const TIER_NAME_PATTERN = RULE_NAME_PATTERN;

const TIER_NAME_MESSAGE = `tier must be 1-${TIER_NAME_MAX} characters of a-z, 0-9, _ and -, starting with a letter or digit`;

export const tierNameSchema = z
  .string({ error: "tier must be a string" })
  .regex(TIER_NAME_PATTERN, TIER_NAME_MESSAGE)
  .meta({ description: "A tier (plan) name.", example: "pro" });

/** A key's tier in a body: a tier name, or null for none. */
export const keyTierSchema = tierNameSchema.nullable();

/**
 * Which rules apply to a request: the tenant's rules, then its tier's (lib/policy/tiers), then the
 * key's own (`layerRules`): at each step a rule with the name of one already there takes its place,
 * the others are added; then only those whose `match` fits the
 * request's method and path (decoded once; HEAD is charged as GET; the path in any case with
 * `match.caseInsensitive`). `identifier` rules are never applied to requests (only through
 * POST /api/v1/check), nor `descriptor` rules (only over Envoy's rate limit service, lib/dataplane/envoy).
 */
import type { LimiterRule } from "../../limiter/types";
import { toLimiterRule, type Rule } from "../rules/ruleSchema";
import { compilePathGlob, normalizePath, type PathMatcher } from "./pathGlob";

/** A rule's `match` as requests are matched against it: null is "every method" or "every path". */
export interface CompiledMatch {
  methods: ReadonlySet<string> | null;
  path: PathMatcher | null;
}

export interface CompiledRule extends CompiledMatch {
  rule: Rule;
  limiter: LimiterRule;
  /** Whether this rule is a key override (dashboard: told apart from tenant rules). */
  override: boolean;
  /** The tier whose rule this is (lib/policy/tiers); absent: a tenant rule or a key override. */
  tier?: string;
}

/** Also what the rule editor's "try a path" box matches with (components/rules/tryPath.ts). */
export function compileMatch(match: Pick<Rule["match"], "methods" | "path" | "caseInsensitive">): CompiledMatch {
  return {
    methods: match.methods ? new Set(match.methods) : null,
    path: match.path ? compilePathGlob(match.path, { caseInsensitive: match.caseInsensitive === true }) : null,
  };
}

export function compileRule(rule: Rule, ref: string, override: boolean): CompiledRule {
  return { rule, limiter: toLimiterRule(rule, ref), ...compileMatch(rule.match), override };
}

/** A tier's rule, compiled as any other and marked with its tier. */
export function compileTierRule(rule: Rule, ref: string, tier: string): CompiledRule {
  return { ...compileRule(rule, ref, false), tier };
}

/** A rule set with overrides applied: rules replaced by same-named overrides, then the other overrides. */
export function mergeRules(tenantRules: CompiledRule[], keyRules: CompiledRule[]): CompiledRule[] {
  if (keyRules.length === 0) return tenantRules;
  const overrides = new Map(keyRules.map((r) => [r.rule.name, r]));
  const merged = tenantRules.map((r) => overrides.get(r.rule.name) ?? r);
  const tenantNames = new Set(tenantRules.map((r) => r.rule.name));
  for (const r of keyRules) if (!tenantNames.has(r.rule.name)) merged.push(r);
  return merged;
}

/**
 * A caller's rules, in precedence order (CONTRACT.md, "Tiers"): the tenant's, then its tier's, then
 * its key's own, each layer replacing same-named rules of the one before and adding the rest. A
 * tier without rules (or a tier name no tier has) and a key without overrides change nothing:
 * the tenant's own list comes back (no copy).
 */
export function layerRules(
  tenantRules: CompiledRule[],
  tierRules: CompiledRule[] = [],
  keyRules: CompiledRule[] = [],
): CompiledRule[] {
  return mergeRules(mergeRules(tenantRules, tierRules), keyRules);
}

function listsMethod(methods: ReadonlySet<string>, method: string): boolean {
  return methods.has(method) || (method === "HEAD" && methods.has("GET"));
}

/**
 * `path` decoded once (lib/dataplane/requestPath.ts). A rule that lists GET applies to HEAD too.
 * `overrideMethod`: the method a method-override header asks for (lib/dataplane/admission/methodOverride.ts);
 * a rule that lists either method applies.
 */
export function matchesRequest(rule: CompiledRule, method: string, path: string, overrideMethod?: string): boolean {
  return appliesToRequests(rule.rule.scope) && fitsMatch(rule, method, path, overrideMethod);
}

/** Whether rules of a scope ever apply to requests: not `identifier` (POST /api/v1/check only) nor `descriptor` (Envoy's only). */
export function appliesToRequests(scope: Rule["scope"]): boolean {
  return scope !== "identifier" && scope !== "descriptor";
}

/** Whether a method and a path (decoded once, through normalizePath) fit a compiled `match`. */
export function fitsMatch(match: CompiledMatch, method: string, path: string, overrideMethod?: string): boolean {
  const methods = match.methods;
  if (
    methods &&
    !listsMethod(methods, method) &&
    !(overrideMethod !== undefined && listsMethod(methods, overrideMethod))
  )
    return false;
  return match.path === null || match.path.test(path);
}

export function rulesForRequest(
  rules: CompiledRule[],
  method: string,
  path: string,
  overrideMethod?: string,
): LimiterRule[] {
  const p = normalizePath(path);
  const out: LimiterRule[] = [];
  for (const rule of rules) if (matchesRequest(rule, method, p, overrideMethod)) out.push(rule.limiter);
  return out;
}

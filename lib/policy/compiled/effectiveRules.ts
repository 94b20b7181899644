/**
 * Which rules apply to a request: the tenant's rules, with a key's override of the same name in
 * place of the tenant rule, plus the key's other rules; then only those whose `match` fits the
 * request's method and path (decoded once; HEAD is charged as GET; the path in any case with
 * `match.caseInsensitive`). `identifier` rules are never applied to requests (only through
 * POST /api/v1/check), nor `descriptor` rules (only over Envoy's rate limit service, lib/dataplane/envoy).
 */
import type { LimiterRule } from "../../limiter/types";
import { toLimiterRule, type Rule } from "../rules/ruleSchema";
import { compilePathGlob, normalizePath, type PathMatcher } from "./pathGlob";

export interface CompiledRule {
  rule: Rule;
  limiter: LimiterRule;
  methods: ReadonlySet<string> | null;
  path: PathMatcher | null;
  /** Whether this rule is a key override (dashboard: told apart from tenant rules). */
  override: boolean;
}

export function compileRule(rule: Rule, ref: string, override: boolean): CompiledRule {
  return {
    rule,
    limiter: toLimiterRule(rule, ref),
    methods: rule.match.methods ? new Set(rule.match.methods) : null,
    path: rule.match.path
      ? compilePathGlob(rule.match.path, { caseInsensitive: rule.match.caseInsensitive === true })
      : null,
    override,
  };
}

/** A key's rule set: tenant rules replaced by same-named overrides, then the other overrides. */
export function mergeRules(tenantRules: CompiledRule[], keyRules: CompiledRule[]): CompiledRule[] {
  const overrides = new Map(keyRules.map((r) => [r.rule.name, r]));
  const merged = tenantRules.map((r) => overrides.get(r.rule.name) ?? r);
  const tenantNames = new Set(tenantRules.map((r) => r.rule.name));
  for (const r of keyRules) if (!tenantNames.has(r.rule.name)) merged.push(r);
  return merged;
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
  if (rule.rule.scope === "identifier" || rule.rule.scope === "descriptor") return false;
  const methods = rule.methods;
  if (
    methods &&
    !listsMethod(methods, method) &&
    !(overrideMethod !== undefined && listsMethod(methods, overrideMethod))
  )
    return false;
  return rule.path === null || rule.path.test(path);
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

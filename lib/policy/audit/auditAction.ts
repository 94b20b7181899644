/**
 * Audit action names, safe for the browser: no imports. The dashboard's audit sentences and
 * revert buttons use these; importing them from revertPlan.ts pulled lib/common/ids (node:crypto) into
 * the audit page's bundle, whose Node polyfills run `Function(...)` and break the page's CSP.
 */
export const REVERT_SUFFIX = ".revert";

/** The action without its `.revert` suffixes: `rules.replace.revert` → `rules.replace`. */
export function baseAction(action: string): string {
  let base = action;
  while (base.endsWith(REVERT_SUFFIX)) base = base.slice(0, -REVERT_SUFFIX.length);
  return base;
}

/**
 * The rule editor's "try a path" box: which of the rules being edited a request (`GET /orders/42`)
 * would meet. It matches with the data plane's own code, not a copy: the path decoded once
 * (lib/dataplane/requestPath.ts), `compileMatch` and `fitsMatch` (lib/policy/compiled/effectiveRules.ts,
 * what `rulesForRequest` runs), so the box and the server cannot disagree. The path is matched as
 * typed: the path the protected API sees (lib/dataplane/requestRoute.ts). A gateway path typed
 * with /api/v1 gets a note saying how the gateway matches it.
 */
import { HTTP_METHOD_TOKEN } from "@/lib/dataplane/admission/methodOverride";
import { decodePathOnce, splitTarget } from "@/lib/dataplane/requestPath";
import { routeOf, rulePathOf } from "@/lib/dataplane/requestRoute";
import { appliesToRequests, compileMatch, fitsMatch } from "@/lib/policy/compiled/effectiveRules";
import { normalizePath } from "@/lib/policy/compiled/pathGlob";
import { pathGlobSchema } from "@/lib/policy/rules/ruleSchema";
import type { RuleDraft } from "./ruleDraft";

export type TriedRequest = { ok: true; method: string; path: string; note?: string } | { ok: false; problem: string };

/** `GET /orders/42`, `/orders/42` (GET) or `post /login?x=1` (the query is no part of the path). */
export function parseTriedRequest(text: string): TriedRequest {
  const parts = text.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { ok: false, problem: "Type a method and a path, e.g. GET /orders/42." };
  if (parts.length > 2) return { ok: false, problem: "Type a method and a path only, e.g. GET /orders/42." };
  const [method, target] = parts.length === 1 ? ["GET", parts[0]!] : [parts[0]!.toUpperCase(), parts[1]!];
  if (!HTTP_METHOD_TOKEN.test(method)) return { ok: false, problem: `${parts[0]} is not an HTTP method.` };
  const decoded = decodePathOnce(splitTarget(target).rawPath);
  if (!decoded.ok) return { ok: false, problem: decoded.reason };
  const path = decoded.path;
  const isGatewayPath = path === "/api/v1" || path.startsWith("/api/v1/") ? routeOf(path) === "gateway" : false;
  if (!isGatewayPath) return { ok: true, method, path };
  return {
    ok: true,
    method,
    path,
    note: `Sent to the gateway under /api/v1, this request is matched as ${rulePathOf("gateway", path)}: try that path. As typed, it is a path on a tenant's host or a forwarded URI.`,
  };
}

export type TryVerdict = "matches" | "no match" | "never applies to requests" | "path not valid";

export interface TriedRule {
  draftId: string;
  /** The rule's name, or its place in the list while it has none. */
  label: string;
  verdict: TryVerdict;
}

/** Each draft's verdict for a request: its method and path (as rules match them: normalizePath). */
export function tryRules(drafts: readonly RuleDraft[], method: string, path: string): TriedRule[] {
  const p = normalizePath(path);
  return drafts.map((draft, i) => {
    const label = draft.name.trim() || `Rule ${i + 1} (no name yet)`;
    const verdictOf = (): TryVerdict => {
      if (!appliesToRequests(draft.scope)) return "never applies to requests";
      const glob = draft.path.trim();
      if (glob !== "" && !pathGlobSchema.safeParse(glob).success) return "path not valid";
      const match = compileMatch({
        methods: draft.methods.length > 0 ? draft.methods : undefined,
        path: glob === "" ? undefined : glob,
        caseInsensitive: draft.pathAnyCase,
      });
      return fitsMatch(match, method, p) ? "matches" : "no match";
    };
    return { draftId: draft.draftId, label, verdict: verdictOf() };
  });
}

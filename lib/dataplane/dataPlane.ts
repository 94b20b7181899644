/**
 * The data plane: every request under /api/v1, served on node:http without Next's request
 * pipeline, in the same process as Next (scripts/server.mjs routes /api/v1 here, the rest to Next).
 *
 * For each request: decode the path once (lib/dataplane/requestPath.ts; 400 for an encoded `/` or
 * `\`, dot or empty segments, bad escapes, a fragment; `;parameters` stripped), read a
 * method-override header (lib/dataplane/admission/methodOverride.ts: rules match both methods; 400
 * when ambiguous), take the client IP from the socket (and
 * X-Forwarded-For as far as SLUICE_TRUST_PROXY allows), make ONE admission (lib/dataplane/admission/admit.ts:
 * caller, rules, one limiter decision) with the path the protected API sees (lib/dataplane/requestRoute.ts:
 * the gateway's without /api/v1, echo's and check's in full) and apply its outcome once
 * (admission/applyOutcome.ts: metrics, monitoring data, lease count), then answer:
 * - /api/v1/echo[/...]: the demo route; /api/v1/check: the decision service;
 * - /api/v1/authorize: forward auth, deciding for the method and URI a proxy forwards, for the
 *   tenant whose host X-Forwarded-Host (else Host) names, with that tenant's callers, if any
 *   (X-Forwarded-Method/-Uri or X-Original-Method/-URI; `query` rules read that URI's query,
 *   `header` rules the headers the proxy passes on): 200 empty + headers, or the refusal;
 * - any other path: the tenant's gateway upstream (lib/dataplane/gateway/forwardToUpstream.ts, wired in entry.ts), or 404.
 * (Forward auth's request is read by lib/dataplane/forwardAuthRequest.ts; the admitted request's
 * answer, and the status it settles, are lib/dataplane/admittedAnswer.ts.)
 * A request whose Host (port ignored, any case) is a tenant's host (the access cache's host table,
 * one Map lookup, skipped while no tenant has a host) is that tenant's on every path: its callers
 * (lib/dataplane/admission/hostCaller.ts) and rules, the rules matching the path as sent, and once
 * admitted forwarded AS SENT (nothing removed) to its upstream, or 404 without one. Only
 * /api/v1/authorize keeps its meaning there; echo and check are the upstream's paths like any
 * other. scripts/server.mjs sends such requests here whatever their path (`isTenantHost`), so
 * Sluice's dashboard, admin API, health and metrics are never served on a tenant's host.
 * Concurrency slots an admission took are given back exactly once when the exchange is over: for
 * the gateway when forwardToUpstream resolves (response ended, failed, timed out or the client
 * went away), for echo and check once Sluice's answer is written (or failed); forward auth takes none.
 * Rules counted by response (chargeOn) are reserved (charged) at admission and given back once the
 * status sent is known not to be listed (lib/dataplane/admission/chargeByResponse.ts): the upstream's or
 * Sluice's own (echo, check, 404, 502, 504); a request answered with no status (the client went away
 * first) stays charged; at /api/v1/authorize, where no status of the protected API is seen, they
 * stay charged from admission.
 * HEAD is charged as GET by the rules; OPTIONS is admitted like any method. Every error is
 * problem+json; Sluice's own answers carry the API security headers (lib/dataplane/nodeIo.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { prepareAdmission, type AdmitDeps, type AdmitRequest } from "./admission/admit";
import { decideOnce } from "./admission/decideOnce";
import { applyOutcome, releaseLease } from "./admission/applyOutcome";
import type { ChargeDeps } from "./admission/chargeByResponse";
import { clientOriginOf } from "../http/clientIp";
import type { TrustProxy } from "../config/trustProxy";
import { problemReplyFor, problemReplyFromError } from "../http/problem";
import { withHeaders } from "../http/reply";
import { decodePathOnce, FRAGMENT, splitTarget } from "./requestPath";
import { continuePending, headerOf, headerSource, sendContinue, writeReply } from "./nodeIo";
import { overriddenMethod, sendsMethodOverride } from "./admission/methodOverride";
import { withProblemHeader } from "./forwardAuthProblem";
import { forwardedHost, forwardedRequest } from "./forwardAuthRequest";
import { admittedAnswer, AnswerStatus, checked, type GatewayHooks } from "./admittedAnswer";
import { checkPlan, type CheckDeps } from "./routes";
import { hostLookupKey } from "../policy/identity/tenantHost";
import type { AccessCache } from "../policy/compiled/accessCache";
import { hostRouteOf, routeOf, rulePathOf } from "./requestRoute";

export interface DataPlaneDeps {
  admit: AdmitDeps;
  check: CheckDeps;
  /** SLUICE_TRUST_PROXY (lib/config/trustProxy.ts): whose X-Forwarded-For is believed. */
  trustProxy: TrustProxy;
  gateway?: GatewayHooks;
}

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** The tenant whose host `host` (a Host header) is, or undefined: one Map lookup, none while no tenant has a host. */
export function tenantOfHost(access: AccessCache, host: string | undefined): string | undefined {
  if (!access.hasHosts()) return undefined;
  const key = hostLookupKey(host);
  return key === undefined ? undefined : access.tenantOfHost(key);
}

export function createDataPlane(deps: DataPlaneDeps): NodeHandler {
  const chargeDeps: ChargeDeps = {
    limiter: deps.admit.limiter,
    ...(deps.admit.metrics ? { metrics: deps.admit.metrics } : {}),
  };
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const { rawPath, query } = splitTarget(req.url ?? "/");
    const decoded = query.includes("#") ? FRAGMENT : decodePathOnce(rawPath);
    if (!decoded.ok) return writeReply(req, res, problemReplyFor("bad_request", decoded.reason));
    const hostTenant = tenantOfHost(deps.admit.access, req.headers.host);
    const route = hostTenant === undefined ? routeOf(decoded.path) : hostRouteOf(decoded.path);
    const origin = clientOriginOf(
      headerOf(req, "x-forwarded-for"),
      req.socket.remoteAddress ?? "unknown",
      deps.trustProxy,
    );
    const ip = origin.ip;

    // `header` rules read the request's own headers; for forward auth those are the client's
    // headers as the proxy passes them on, and `query` rules read the forwarded URI's query.
    // Rules match the path the protected API sees (requestRoute.ts): the gateway's without /api/v1.
    const path = rulePathOf(route, decoded.path);
    let request: AdmitRequest = { method, path, headers: headerSource(req), ip, query };
    const override = sendsMethodOverride(req.headers) ? overriddenMethod(req.headersDistinct) : undefined;
    if (typeof override === "object") {
      const problem = problemReplyFor("bad_request", override.problem);
      return writeReply(req, res, route === "authorize" ? withProblemHeader(problem) : problem);
    }
    if (override !== undefined) request.overrideMethod = override;
    if (hostTenant !== undefined) request.hostTenant = hostTenant;
    if (route === "authorize") {
      const forwarded = forwardedRequest(req);
      if ("status" in forwarded) return writeReply(req, res, withProblemHeader(forwarded));
      request = {
        ...request,
        method: forwarded.method,
        path: forwarded.path,
        query: forwarded.query,
        forwardAuth: true,
      };
      // The protected API's host names the tenant (its callers apply), when it is a tenant's.
      if (hostTenant === undefined && deps.admit.access.hasHosts()) {
        const host = forwardedHost(req);
        if (typeof host === "object") return writeReply(req, res, withProblemHeader(host));
        const tenant = tenantOfHost(deps.admit.access, host);
        if (tenant !== undefined) request.hostTenant = tenant;
      }
    }
    // /api/v1/check: the identifier's decision is made in the admission's limiter call (routes.ts checkPlan).
    // Not when the body waits for `100 Continue`: it is read once the call is admitted (checkReply).
    const plan =
      route === "check" && method === "POST" && !continuePending(req) ? checkPlan(req, deps.check) : undefined;
    // The status the client is answered with, for the key's recent decisions (not for forward auth:
    // Sluice does not answer the protected request itself), and the by-response charge it settles.
    const answered = new AnswerStatus(chargeDeps);
    if (route !== "authorize") request.answered = answered;
    // Admission's steps (admission/admit.ts), with check's identifier decided in the same limiter call.
    let admission = await prepareAdmission(request, deps.admit);
    if (admission.kind === "decide") {
      let then = plan?.decisionFor(admission.client);
      if (then instanceof Promise) then = await then;
      admission = await decideOnce(admission, request, deps.admit, then);
    }
    applyOutcome(admission, request, deps.admit);
    if (admission.kind === "refused") {
      const refusal = route === "authorize" ? withProblemHeader(admission.reply) : admission.reply;
      return writeReply(req, res, plan?.bodyUnread() ? withHeaders(refusal, { connection: "close" }) : refusal);
    }
    sendContinue(req, res);
    // Settled once: by the status sent, or (no status: the client went away first) when the exchange is over.
    answered.charge = admission.charge;
    try {
      // check's answer is a promise only when its decision is still to be made (routes.ts checkPlan).
      let reply = plan
        ? checked(() => plan.reply(admission.client, admission.then))
        : await admittedAnswer(
            deps,
            route,
            req,
            res,
            admission.client,
            origin.viaTrustedProxy,
            admission.headers,
            rawPath,
            query,
            answered,
          );
      if (reply instanceof Promise) reply = await reply;
      if (reply) {
        writeReply(req, res, reply, admission.headers);
        answered.sent(reply.status);
      }
    } finally {
      answered.settle();
      if (admission.lease) void releaseLease(deps.admit, admission.lease);
    }
  }

  return (req, res) => {
    serve(req, res).catch((error: unknown) => writeReply(req, res, problemReplyFromError(error)));
  };
}

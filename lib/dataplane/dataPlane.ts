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
import type { AnswerBox } from "../monitoring/record/recentDecisions";
import type { IncomingMessage, ServerResponse } from "node:http";
import { admit, type AdmitDeps, type AdmitRequest } from "./admission/admit";
import { applyOutcome, releaseLease } from "./admission/applyOutcome";
import type { Client } from "./admission/outcome";
import { chargeByResponse, type ChargeDeps } from "./admission/chargeByResponse";
import { clientOriginOf } from "../http/clientIp";
import type { TrustProxy } from "../config/trustProxy";
import { problemReplyFor, problemReplyFromError } from "../http/problem";
import type { ForwardRequest } from "./gateway/forwardToUpstream";
import type { Reply } from "../http/reply";
import { absoluteForm, decodePathOnce, FRAGMENT, rawPathAfter, splitTarget } from "./requestPath";
import { continuePending, headerOf, headerSource, sendContinue, writeReply } from "./nodeIo";
import { HTTP_METHOD_TOKEN, overriddenMethod, sendsMethodOverride } from "./admission/methodOverride";
import { withProblemHeader } from "./forwardAuthProblem";
import { authorizedReply, checkPlan, checkReply, echoReply, type CheckDeps } from "./routes";
import { hostLookupKey } from "../policy/identity/tenantHost";
import type { AccessCache } from "../policy/compiled/accessCache";
import { hostRouteOf, routeOf, rulePathOf, type Route } from "./requestRoute";

/** A tenant's gateway upstream (lib/dataplane/gateway/forwardToUpstream.ts). */
export type Upstream = ForwardRequest["upstream"];

/** The gateway (lib/dataplane/gateway, wired in entry.ts): the tenant's upstream, and the forwarding itself. */
export interface GatewayHooks {
  upstreamFor(tenantId: string): Upstream | undefined;
  forward(f: ForwardRequest): Promise<void>;
}

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

const withHeaders = (reply: Reply, headers: Record<string, string>): Reply => ({
  ...reply,
  headers: { ...reply.headers, ...headers },
});

/** /api/v1/check's error as a problem. */
function checkProblem(error: unknown): Reply {
  const problem = problemReplyFromError(error);
  // The body may not have been read to its end (over the limit): do not reuse the connection.
  return problem.status === 413 ? withHeaders(problem, { connection: "close" }) : problem;
}

/** /api/v1/check's answer, or its error as a problem; a promise only when `make` gave one. */
function checked(make: () => Reply | Promise<Reply>): Reply | Promise<Reply> {
  try {
    const reply = make();
    return reply instanceof Promise ? reply.catch(checkProblem) : reply;
  } catch (error) {
    return checkProblem(error);
  }
}

/**
 * One forwarded value from the proxy: `forwarded` (Caddy, Traefik) or `original` (nginx). A reply
 * when it is ambiguous: either header sent more than once (Node would join them with ", "), or both
 * sent with different values. A proxy sets one of the pair and passes the client's other headers on
 * (it must: the credentials are among them), so a client behind nginx could add X-Forwarded-Uri and
 * pick the path the rules see, or the other way round behind Caddy. Neither may win: 400.
 */
function forwardedValue(req: IncomingMessage, forwarded: string, original: string): string | undefined | Reply {
  const a = req.headersDistinct[forwarded];
  const b = req.headersDistinct[original];
  if ((a?.length ?? 0) > 1 || (b?.length ?? 0) > 1)
    return problemReplyFor("bad_request", `Forward auth needs one ${forwarded} or ${original}, not several.`);
  const value = a?.[0]?.trim();
  const other = b?.[0]?.trim();
  if (value !== undefined && other !== undefined && value !== other)
    return problemReplyFor(
      "bad_request",
      `${forwarded} and ${original} disagree: the proxy sets one of them, so the other came from the client.`,
    );
  return value ?? other;
}

/**
 * The host of the request forward auth decides for: the proxy's X-Forwarded-Host, else the Host of
 * the subrequest; a reply when X-Forwarded-Host is sent more than once or lists several hosts (a
 * client's own value beside the proxy's: neither may pick the tenant).
 */
function forwardedHost(req: IncomingMessage): string | undefined | Reply {
  const sent = req.headersDistinct["x-forwarded-host"];
  if (!sent) return req.headers.host;
  if (sent.length > 1 || sent[0]!.includes(","))
    return problemReplyFor("bad_request", "Forward auth needs one X-Forwarded-Host, not several.");
  return sent[0]!.trim();
}

/** The method, decoded path and query forward auth decides for, from the proxy's headers. */
function forwardedRequest(req: IncomingMessage): { method: string; path: string; query: string } | Reply {
  const method = forwardedValue(req, "x-forwarded-method", "x-original-method");
  if (typeof method === "object") return method;
  const uri = forwardedValue(req, "x-forwarded-uri", "x-original-uri");
  if (typeof uri === "object") return uri;
  const upper = method?.toUpperCase();
  if (!upper || !HTTP_METHOD_TOKEN.test(upper) || !uri) {
    return problemReplyFor(
      "bad_request",
      "Forward auth needs the original method and URI: X-Forwarded-Method and X-Forwarded-Uri (or X-Original-Method and X-Original-URI).",
    );
  }
  if (/\s/.test(uri)) return problemReplyFor("bad_request", "The forwarded URI is refused: it contains whitespace.");
  // A proxy may pass the URI as the client sent it: in absolute-form too (http://host/path). A
  // fragment is a 400 here as in any request target Sluice serves: the protected API may route
  // `/login#x` as `/login` (nginx does), so no rule may see it otherwise, and none drops it silently.
  if (uri.includes("#")) return problemReplyFor("bad_request", `The forwarded URI is refused: ${FRAGMENT.reason}`);
  const absolute = absoluteForm(uri);
  // `http://user:pw@host/path` is refused for what it is (it was "must start with /").
  if (!absolute && /^[a-z][a-z0-9+.-]*:\/\//i.test(uri))
    return problemReplyFor(
      "bad_request",
      /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(uri)
        ? "The forwarded URI is refused: it carries userinfo (user@ or user:password@), which a request target never does."
        : "The forwarded URI is refused: an absolute URI must be http or https with a host.",
    );
  const target = splitTarget(absolute?.originForm ?? uri);
  const decoded = decodePathOnce(target.rawPath);
  if (!decoded.ok) return problemReplyFor("bad_request", `The forwarded URI is refused: ${decoded.reason}`);
  return { method: upper, path: decoded.path, query: target.query };
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
    if (plan) request.then = plan;
    // The status the client is answered with, for the key's recent decisions (not for forward auth:
    // Sluice does not answer the protected request itself).
    const answered: AnswerBox = { status: null };
    if (route !== "authorize") request.answered = answered;
    const admission = await admit(request, deps.admit);
    applyOutcome(admission, request, deps.admit);
    if (admission.kind === "refused") {
      const refusal = route === "authorize" ? withProblemHeader(admission.reply) : admission.reply;
      return writeReply(req, res, plan?.bodyUnread() ? withHeaders(refusal, { connection: "close" }) : refusal);
    }
    sendContinue(req, res);
    // Settled once: by the status sent, or (no status: the client went away first) when the exchange is over.
    let unsettled = admission.charge !== undefined;
    const settle = (status?: number) => {
      if (!unsettled) return;
      unsettled = false;
      void chargeByResponse(admission.charge, status, chargeDeps);
    };
    const charge = (status: number) => {
      answered.status = status;
      settle(status);
    };
    try {
      // check's answer is a promise only when its decision is still to be made (routes.ts checkPlan).
      let reply = plan
        ? checked(() => plan.reply(admission.client, admission.then))
        : await answer(
            route,
            req,
            res,
            admission.client,
            origin.viaTrustedProxy,
            admission.headers,
            rawPath,
            query,
            charge,
          );
      if (reply instanceof Promise) reply = await reply;
      if (reply) {
        writeReply(req, res, reply, admission.headers);
        charge?.(reply.status);
      }
    } finally {
      settle();
      if (admission.lease) void releaseLease(deps.admit, admission.lease);
    }
  }

  /** The admitted request's answer; undefined when it was written already (the gateway). */
  async function answer(
    route: Route,
    req: IncomingMessage,
    res: ServerResponse,
    client: Client,
    viaTrustedProxy: boolean,
    headers: Record<string, string>,
    rawPath: string,
    query: string,
    onStatus?: (status: number) => void,
  ): Promise<Reply | undefined> {
    const method = req.method ?? "GET";
    switch (route) {
      case "echo":
        return echoReply(method, rawPath, client);
      case "check":
        return checked(() => checkReply(req, client, deps.check));
      case "authorize":
        return authorizedReply(client);
      case "gateway":
      case "hosted": {
        const upstream = deps.gateway?.upstreamFor(client.tenantId);
        if (!deps.gateway || !upstream)
          return problemReplyFor(
            "not_found",
            route === "hosted"
              ? `This host's tenant has no gateway upstream to serve ${rawPath}.`
              : `No API route at ${rawPath}, and this tenant has no gateway upstream.`,
          );
        // Upstream health (lib/monitoring/record/upstreamOutcomes.ts): each status sent, and the time to it.
        const started = performance.now();
        const recorder = deps.admit.recorder;
        const told = (status: number) => {
          recorder?.recordUpstream?.(client.tenantId, status, performance.now() - started);
          onStatus?.(status);
        };
        await deps.gateway.forward({
          req,
          res,
          upstream,
          // On a tenant's host the path goes on as sent; under /api/v1, without /api/v1.
          path: (route === "hosted" ? rawPath : rawPathAfter(rawPath, 2)) + query,
          clientIp: client.ip,
          viaTrustedProxy,
          tenantId: client.tenantId,
          keyId: client.key?.id ?? "",
          ...(client.credential !== undefined ? { credential: client.credential } : {}),
          rateLimitHeaders: headers,
          onStatus: told,
        });
        return undefined;
      }
    }
  }

  return (req, res) => {
    serve(req, res).catch((error: unknown) => writeReply(req, res, problemReplyFromError(error)));
  };
}

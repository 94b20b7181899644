/**
 * What the data plane answers once a request is admitted (lib/dataplane/admission/admit.ts), each as a plain
 * `Reply`: the demo route `echo`, the decision service `check`, forward auth `authorize`. The
 * admission's rate-limit headers are added by the caller (lib/dataplane/dataPlane.ts).
 */
import type { IncomingMessage } from "node:http";
import { checkAnswer, checkIdentifier, identifierDecision } from "./admission/checkIdentifier";
import type { AccessCache } from "../policy/compiled/accessCache";
import { checkRequestSchema, type CheckRequest } from "../policy/rules/checkRequest";
import type { FollowingDecision } from "./admission/decideOnce";
import type { Client } from "./admission/outcome";
import type { EchoAnswer } from "../policy/dataPlaneAnswers";
import { MAX_BODY_BYTES, parseJsonText, readJsonWith, refuseDeclaredLength } from "../http/readJsonBody";
import { problemReplyFor } from "../http/problem";
import { jsonReply, type Reply } from "../http/reply";
import { parseInput } from "../http/validate";
import type { Limiter } from "../limiter/decide";
import type { Decision, LimiterRule, Subject } from "../limiter/types";
import { AppError } from "../http/errors";
import { HTTP_METHODS, type HttpMethod } from "../http/httpMethods";
import type { DecisionSink } from "../monitoring/record/decisionRecorder";
import { bufferedBodyText, headerOf, readBodyText } from "./nodeIo";

export const ECHO_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const ECHOED = new Set(ECHO_METHODS.split(", "));
export const CHECK_METHODS = "POST, OPTIONS";

/**
 * What the data plane serves, as OpenAPI paths and methods (it has no route files): read by
 * test/support/routeFiles.ts so the OpenAPI document is checked against it like any route.
 */
export const DATA_PLANE_ROUTES: { paths: string[]; methods: HttpMethod[] }[] = [
  { paths: ["/api/v1/echo", "/api/v1/echo/{rest}"], methods: [...HTTP_METHODS] },
  { paths: ["/api/v1/check"], methods: ["POST", "OPTIONS"] },
  { paths: ["/api/v1/authorize"], methods: [...HTTP_METHODS] },
  { paths: ["/api/v1/{path}"], methods: [...HTTP_METHODS] },
];

/** 204 with `Allow`: an admitted OPTIONS request (it was authenticated and limited like any other). */
export const optionsReply = (allow: string): Reply => ({ status: 204, headers: { allow }, body: null });

/** GET|HEAD|POST|PUT|PATCH|DELETE /api/v1/echo[/...]: who the caller is. `rawPath` as sent. */
export function echoReply(method: string, rawPath: string, client: Client): Reply {
  if (method === "OPTIONS") return optionsReply(ECHO_METHODS);
  if (!ECHOED.has(method))
    return problemReplyFor("method_not_allowed", `This route serves ${ECHO_METHODS}.`, {}, { allow: ECHO_METHODS });
  // Echo is served under /api/v1 only, where every caller has a key.
  const answer: EchoAnswer = {
    ok: true,
    tenantId: client.tenantId,
    keyId: client.key?.id ?? null,
    method,
    path: rawPath,
  };
  return jsonReply(answer);
}

export interface CheckDeps {
  access: AccessCache;
  limiter: Limiter;
  recorder?: DecisionSink;
}

/** POST /api/v1/check: the identifier verdict (lib/dataplane/admission/checkIdentifier.ts). */
export async function checkReply(req: IncomingMessage, client: Client, deps: CheckDeps): Promise<Reply> {
  const method = req.method ?? "GET";
  if (method === "OPTIONS") return optionsReply(CHECK_METHODS);
  if (method !== "POST")
    return problemReplyFor("method_not_allowed", `This route serves ${CHECK_METHODS}.`, {}, { allow: CHECK_METHODS });
  const input = parseInput(
    checkRequestSchema,
    await readJsonWith(headerOf(req, "content-length"), (maxBytes) => readBodyText(req, maxBytes)),
  );
  return jsonReply(await checkIdentifier(deps.limiter, deps.access.tenant(client.tenantId), input, deps.recorder));
}

/**
 * POST /api/v1/check with its identifier's decision made in the admission's limiter call (one
 * Redis round trip): the data plane asks the plan for it between admission's steps (an object, so
 * no closure per call); once the caller is known and its rules are to be decided
 * (lib/dataplane/admission/admit.ts prepareAdmission), `decisionFor` reads and validates the body
 * and names that decision (lib/dataplane/admission/decideOnce.ts `then`; it never throws); `reply` answers with the
 * decision admission made, or makes it when admission made none (the access list admitted the
 * client, or no rule of the key matched). A body that cannot be read or validated, or a rule the
 * tenant lacks, adds no decision: the key's own stands, then the error is the answer (as before).
 * Both are synchronous in the usual case (the body came with the headers: `bufferedBodyText`; the
 * decision was made): a promise and a microtask per step cost CPU on every call (most of it in the
 * async hooks Next's AsyncLocalStorage turns on process-wide).
 */
export function checkPlan(req: IncomingMessage, deps: CheckDeps): CheckPlan {
  return new CheckPlan(req, deps);
}

/** A class, not closures: one object per call where a closure per step was allocated. */
class CheckPlan {
  private prepared:
    { input: CheckRequest; next: { rules: LimiterRule[]; subject: Subject } } | { error: unknown } | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly deps: CheckDeps,
  ) {}

  /** The identifier's decision (undefined: none), asked for by the data plane once the caller is known. */
  decisionFor(client: Client): FollowingDecision | undefined | Promise<FollowingDecision | undefined> {
    let text: string | undefined;
    try {
      refuseDeclaredLength(headerOf(this.req, "content-length"));
      text = bufferedBodyText(this.req, MAX_BODY_BYTES);
    } catch (error) {
      return this.fail(error);
    }
    if (text !== undefined) return this.prepare(client, text);
    return readBodyText(this.req, MAX_BODY_BYTES).then(
      (read) => this.prepare(client, read),
      (error: unknown) => this.fail(error),
    );
  }

  /** Whether the body was left unread (over the limit): the connection must not be reused. */
  bodyUnread(): boolean {
    const prepared = this.prepared;
    return (
      prepared !== undefined &&
      "error" in prepared &&
      prepared.error instanceof AppError &&
      prepared.error.status === 413
    );
  }

  /** Throws the body's or the rule's error; a promise only when the decision is still to be made. */
  reply(client: Client, decision: Decision | undefined): Reply | Promise<Reply> {
    const prepared = this.prepared;
    if (!prepared) return checkReply(this.req, client, this.deps);
    if ("error" in prepared) throw prepared.error;
    const { input, next } = prepared;
    if (decision) return this.answer(input, next, decision);
    return this.deps.limiter.decide(next.rules, next.subject).then((made) => this.answer(input, next, made));
  }

  private prepare(client: Client, text: string) {
    try {
      const input = parseInput(checkRequestSchema, parseJsonText(text));
      const next = identifierDecision(this.deps.access.tenant(client.tenantId), input);
      this.prepared = { input, next };
      return next;
    } catch (error) {
      return this.fail(error);
    }
  }

  private fail(error: unknown): undefined {
    this.prepared = { error };
    return undefined;
  }

  private answer(input: CheckRequest, next: { subject: Subject }, decision: Decision): Reply {
    return jsonReply(checkAnswer(next.subject.tenantId, input, decision, this.deps.recorder));
  }
}

/**
 * /api/v1/authorize, admitted: 200 with an empty body, the tenant and the key id for the proxy. The
 * key id is empty for a caller without a key (a JWT or anonymous caller on a tenant's host), never
 * absent: Caddy copies an absent header as its literal placeholder (deploy/caddy/Caddyfile).
 */
export function authorizedReply(client: Client): Reply {
  return {
    status: 200,
    headers: { "x-sluice-tenant": client.tenantId, "x-sluice-key": client.key?.id ?? "" },
    body: "",
  };
}

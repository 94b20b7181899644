/**
 * The answer to an admitted request (lib/dataplane/dataPlane.ts admits it first): echo, check and
 * authorize as plain replies (lib/dataplane/routes.ts), any other path forwarded to the tenant's
 * gateway upstream (lib/dataplane/gateway/forwardToUpstream.ts, wired in lib/runtime/dataPlaneEntry.ts),
 * or 404 without one. `AnswerStatus` follows the exchange to its end: the status sent (for the key's
 * recent decisions) and the by-response charge, settled once (admission/chargeByResponse.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { problemReplyFor, problemReplyFromError } from "../http/problem";
import { withHeaders, type Reply } from "../http/reply";
import type { AnswerBox } from "../monitoring/record/recentDecisions";
import type { DecisionSink } from "../monitoring/record/decisionRecorder";
import { chargeByResponse, type ChargeDeps, type DeferredCharge } from "./admission/chargeByResponse";
import type { Client } from "./admission/outcome";
import type { ForwardRequest } from "./gateway/forwardRequest";
import { rawPathAfter } from "./requestPath";
import type { Route } from "./requestRoute";
import { authorizedReply, checkReply, echoReply, type CheckDeps } from "./routes";

/** A tenant's gateway upstream (lib/dataplane/gateway/forwardToUpstream.ts). */
export type Upstream = ForwardRequest["upstream"];

/** The gateway (lib/dataplane/gateway, wired in entry.ts): the tenant's upstream, and the forwarding itself. */
export interface GatewayHooks {
  upstreamFor(tenantId: string): Upstream | undefined;
  forward(f: ForwardRequest): Promise<void>;
}

/** What answering needs of the data plane's wiring (DataPlaneDeps). */
export interface AnswerDeps {
  admit: { recorder?: DecisionSink };
  check: CheckDeps;
  gateway?: GatewayHooks;
}

/**
 * One exchange's answer, made before admission so the key's recent decision can name it
 * (AdmitRequest.answered: `status`, read at the next flush). `sent` notes the status the answer
 * went out with and settles the by-response `charge` with it; `settle()` settles it without one
 * (the client went away first). Settled once, whichever comes first: one object per request, no
 * closure.
 */
export class AnswerStatus implements AnswerBox {
  status: number | null = null;
  /** Admission's deferred charge (Admission.charge), until settled. */
  charge: DeferredCharge | undefined = undefined;

  constructor(private readonly deps: ChargeDeps) {}

  sent(status: number): void {
    this.status = status;
    this.settle(status);
  }

  settle(status?: number): void {
    const charge = this.charge;
    if (charge === undefined) return;
    this.charge = undefined;
    void chargeByResponse(charge, status, this.deps);
  }
}

/** /api/v1/check's error as a problem. */
function checkProblem(error: unknown): Reply {
  const problem = problemReplyFromError(error);
  // The body may not have been read to its end (over the limit): do not reuse the connection.
  return problem.status === 413 ? withHeaders(problem, { connection: "close" }) : problem;
}

/** /api/v1/check's answer, or its error as a problem; a promise only when `make` gave one. */
export function checked(make: () => Reply | Promise<Reply>): Reply | Promise<Reply> {
  try {
    const reply = make();
    return reply instanceof Promise ? reply.catch(checkProblem) : reply;
  } catch (error) {
    return checkProblem(error);
  }
}

/** The admitted request's answer; undefined when it was written already (the gateway). */
export async function admittedAnswer(
  deps: AnswerDeps,
  route: Route,
  req: IncomingMessage,
  res: ServerResponse,
  client: Client,
  viaTrustedProxy: boolean,
  headers: Record<string, string>,
  rawPath: string,
  query: string,
  answer: AnswerStatus,
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
        answer.sent(status);
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

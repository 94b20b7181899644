/**
 * What the gateway is handed for one admitted request (lib/dataplane/gateway/forwardToUpstream.ts):
 * the client's request and response, the tenant's upstream, who the caller is, and the admission's
 * rate-limit headers. A plain shape: the data plane (lib/dataplane/admittedAnswer.ts) fills it in.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { UpstreamTarget } from "../../policy/upstreams/upstreamSchema";

export interface ForwardRequest {
  req: IncomingMessage;
  res: ServerResponse;
  upstream: UpstreamTarget;
  /** The path and query after /api/v1, e.g. "/orders/42?x=1". */
  path: string;
  clientIp: string;
  /** The connection is a trusted proxy's (lib/http/clientIp.ts): its X-Forwarded-Proto/-Host pass on. */
  viaTrustedProxy: boolean;
  tenantId: string;
  /** The caller's key id; "" for a JWT or anonymous caller (no X-Sluice-Key then). */
  keyId: string;
  /** The credential header Sluice consumed (removed), null for none; absent: forwardHeaders.ts consumedCredential. */
  credential?: "authorization" | "x-api-key" | null;
  rateLimitHeaders: Record<string, string>;
  /** Told the status sent to the client (forwardToUpstream.ts). Must not throw. */
  onStatus?: (status: number) => void;
}

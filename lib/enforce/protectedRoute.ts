/**
 * Wraps a handler under /api/v1 so it runs only for admitted requests (lib/enforce/admit.ts) and
 * its response carries the decision's rate-limit headers. Errors become problem responses.
 */
import { config } from "../config";
import { problemFromError } from "../http/problem";
import { metrics } from "../metrics/metrics";
import { services } from "../runtime/services";
import { admit, type AdmitDeps, type Client } from "./admit";

export type ProtectedHandler = (request: Request, client: Client) => Promise<Response>;

function defaultDeps(): AdmitDeps {
  const s = services();
  const c = config();
  return { access: s.access, limiter: s.limiter, keyUsage: s.keyUsage, recorder: s.recorder, metrics: metrics(), anonLimitPerMinute: c.anonLimitPerMinute, trustProxyHops: c.trustProxyHops, enforce: c.enforcement === "on" };
}

export function protectedRoute(handler: ProtectedHandler, deps: () => AdmitDeps = defaultDeps): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      const admission = await admit(request, deps());
      if (!admission.admitted) return admission.response;
      const response = await handler(request, admission.client).catch(problemFromError);
      for (const [name, value] of Object.entries(admission.headers)) response.headers.set(name, value);
      return response;
    } catch (error) {
      return problemFromError(error);
    }
  };
}

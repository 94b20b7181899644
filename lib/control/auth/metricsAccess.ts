/**
 * Who may read GET /api/metrics. Without SLUICE_METRICS_TOKEN: anyone (keep the route off the
 * public network). With it: `Authorization: Bearer <SLUICE_METRICS_TOKEN>`, else 401 problem; the
 * exposition names every tenant's rules. Wrong tokens count toward the address's bearer failures
 * (lib/control/auth/bearerFailures.ts): past the limit, 429.
 */
import { bearerFailures, type BearerFailures } from "./bearerFailures";
import { config } from "../../config/config";
import { clientIp } from "../../http/clientIp";
import { bearerToken, sameSecret } from "../../http/bearerToken";
import { AppError } from "../../http/errors";

export function assertMetricsAccess(
  request: Request,
  token = config().metricsToken,
  failures: () => BearerFailures = bearerFailures,
): void {
  if (token === undefined) return;
  const given = bearerToken(request.headers);
  if (given !== null) {
    const ip = clientIp(request.headers, config().trustProxy);
    failures().assertMayTry(ip);
    if (sameSecret(given, token)) return;
    failures().recordFailure(ip);
  }
  throw new AppError("unauthorized", "GET /api/metrics needs Authorization: Bearer <SLUICE_METRICS_TOKEN>.", {
    headers: { "WWW-Authenticate": 'Bearer realm="sluice-metrics"' },
  });
}

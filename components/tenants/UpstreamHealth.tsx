"use client";
/**
 * The upstream card's health part (issue 31, point 4): the URL clients call (this dashboard's
 * origin with /api/v1, which the gateway forwards without /api/v1), the answers of the last 15
 * minutes as the gateway saw them (2xx/4xx/5xx, 502 unreachable and 504 timed out apart, latency
 * percentiles: GET /api/admin/monitoring/upstream), and, for admins, "Test connection": one GET sent
 * from the server through the gateway's address guard (POST .../upstream/test).
 */
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { apiGet, apiSend, LIVE_INTERVAL_MS, withQuery, type ApiError, errorMessage } from "@/components/api/apiClient";
import { formatCount } from "@/components/format/numberFormat";
import { FormError } from "@/components/forms/FormError";
import type { UpstreamHealth as Health } from "@/lib/monitoring/query/monitoringAnswers";
import type { UpstreamTestResult } from "@/lib/policy/upstreams/upstreamSchema";
import { tenantPath } from "@/components/api/tenantQueries";

const noSubscribe = () => () => undefined;

/** `origin` once in the browser (the server render has none). */
function useOrigin(): string {
  return useSyncExternalStore(
    noSubscribe,
    () => window.location.origin,
    () => "",
  );
}

const ms = (value: number | null, slower: number) =>
  value === null ? `> ${formatCount(slower)} ms` : `≤ ${formatCount(value)} ms`;

export function UpstreamHealth({ tenantId, canTest }: { tenantId: string; canTest: boolean }) {
  const origin = useOrigin();
  const health = useQuery<Health, ApiError>({
    queryKey: ["tenant", tenantId, "upstream-health"],
    queryFn: () => apiGet<Health>(withQuery("/api/admin/monitoring/upstream", { tenantId, range: "15m" })),
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
  const test = useMutation<UpstreamTestResult, ApiError>({
    mutationFn: () => apiSend<UpstreamTestResult>("POST", `${tenantPath(tenantId)}/upstream/test`),
  });
  const h = health.data;
  return (
    <div data-testid="upstream-health">
      <h3>Clients call</h3>
      <p>
        <code>{origin}/api/v1/…</code> with their key; <code>/api/v1/orders/42</code> is forwarded as{" "}
        <code>/orders/42</code>.
      </p>
      <h3>Health, last 15 minutes</h3>
      {h && h.answers > 0 ? (
        <dl aria-label="Upstream health">
          <dt>Answers</dt>
          <dd>
            {formatCount(h.answers)}: {formatCount(h.byStatus["2xx"])} 2xx, {formatCount(h.byStatus["4xx"])} 4xx,{" "}
            {formatCount(h.byStatus["5xx"])} 5xx
          </dd>
          <dt>Gateway errors</dt>
          <dd>
            {formatCount(h.byStatus["502"])} × 502 (unreachable), {formatCount(h.byStatus["504"])} × 504 (timed out)
          </dd>
          <dt>Time to answer</dt>
          <dd>
            p50 {ms(h.latency.p50, h.latency.slowerThanMs)}, p90 {ms(h.latency.p90, h.latency.slowerThanMs)}, p99{" "}
            {ms(h.latency.p99, h.latency.slowerThanMs)}
          </dd>
        </dl>
      ) : (
        <p className="muted">
          {health.error ? errorMessage(health.error) : "No request was forwarded in the last 15 minutes."}
        </p>
      )}
      {canTest ? (
        <div className="form-actions">
          <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
            {test.isPending ? "Testing…" : "Test connection"}
          </button>
        </div>
      ) : null}
      <FormError message={test.error ? errorMessage(test.error) : null} />
      {test.data ? (
        <p
          role="status"
          className={test.data.ok ? "notice notice-ok" : "notice notice-warn"}
          data-testid="upstream-test"
        >
          {test.data.ok
            ? `Reachable: answered ${test.data.status} in ${formatCount(test.data.latencyMs)} ms.`
            : `Not reachable: ${test.data.error} (after ${formatCount(test.data.latencyMs)} ms).`}
        </p>
      ) : null}
    </div>
  );
}

"use client";
/** A live key's remaining quota on each of its effective rules, polled every 2 s. */
import { ChartCard } from "@/components/charts/ChartCard";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { formatClock } from "@/components/format/dateFormat";
import { useKeyQuota } from "./keyQueries";
import { QuotaTable } from "./QuotaTable";
import { ResetQuotaButton } from "./ResetQuotaButton";

/** `reset`: the key's name, when the viewer may reset its counters (admins). */
export function KeyQuotaCard({ keyId, reset }: { keyId: string; reset?: { keyName: string } }) {
  const quota = useKeyQuota(keyId);
  const data = quota.data;
  return (
    <ChartCard
      title="Remaining quota"
      hint={
        data ? `Read from the limiter (nothing charged) at ${formatClock(data.nowMs)}; refreshed every 2 s.` : undefined
      }
    >
      {quota.isPending ? <Loading label="Loading quota…" /> : null}
      {quota.error ? <ErrorState error={quota.error} /> : null}
      {data && data.rules.length === 0 ? (
        <Empty>No rule applies to this key: its requests are not limited.</Empty>
      ) : null}
      {data && data.rules.length > 0 ? (
        <QuotaTable rules={data.rules} caption="Remaining quota of this key" showSource />
      ) : null}
      {reset ? <ResetQuotaButton keyId={keyId} keyName={reset.keyName} /> : null}
    </ChartCard>
  );
}

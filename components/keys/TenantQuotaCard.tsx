"use client";
/**
 * Each live key's remaining quota per rule of the tenant, live (polled every 2 s). Rules charged
 * to the whole tenant are shown once, above the keys, since all keys share their counter.
 */
import { ChartCard } from "@/components/charts/ChartCard";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { formatClock } from "@/components/format/dateFormat";
import { KeyLink } from "@/components/tables/entityLinks";
import { useTenantQuota } from "./keyQueries";
import { QuotaTable } from "./QuotaTable";
import styles from "./keys.module.css";

export function TenantQuotaCard({ tenantId }: { tenantId: string }) {
  const quota = useTenantQuota(tenantId);
  const data = quota.data;
  const keysWithRules = data?.keys.filter((k) => k.rules.length > 0) ?? [];

  return (
    <ChartCard
      id="quota"
      title="Remaining quota"
      hint={
        data ? `Read from the limiter (nothing charged) at ${formatClock(data.nowMs)}; refreshed every 2 s.` : undefined
      }
    >
      {quota.isPending ? <Loading label="Loading quota…" /> : null}
      {quota.error ? <ErrorState error={quota.error} /> : null}
      {data && data.tenantRules.length === 0 && keysWithRules.length === 0 ? (
        <Empty>
          {data.keys.length === 0 ? "No live keys." : "No key-scope or tenant-scope rule applies to these keys."}
        </Empty>
      ) : null}
      {data && data.tenantRules.length > 0 ? (
        <div className={styles.quotaGroup}>
          <h3>Whole tenant (shared by all keys)</h3>
          <QuotaTable rules={data.tenantRules} caption="Remaining quota of the whole tenant" />
        </div>
      ) : null}
      {keysWithRules.map((key) => (
        <div key={key.keyId} className={styles.quotaGroup} data-key-id={key.keyId}>
          <h3>
            <KeyLink keyId={key.keyId} keyName={key.keyName} />
          </h3>
          <QuotaTable rules={key.rules} caption={`Remaining quota of key ${key.keyName}`} showSource />
        </div>
      ))}
      {data?.truncated ? <p className="hint">Only the oldest {data.keys.length} keys are shown.</p> : null}
    </ChartCard>
  );
}

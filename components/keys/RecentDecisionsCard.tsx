"use client";
/** The key's latest decisions, newest first, live: why was this client refused just now? */
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { ChartCard } from "@/components/charts/ChartCard";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { formatClock } from "@/components/format/dateFormat";
import { useKeyDecisions } from "./keyQueries";
import type { RecentDecision } from "./keyTypes";
import styles from "./keys.module.css";
import { ScrollRegion } from "@/components/tables/ScrollRegion";

/** Sluice's own gateway answers: the upstream failed, not the limiter. */
const GATEWAY_WORDS: Record<number, string> = { 502: "upstream unreachable", 504: "upstream timed out" };

function Outcome({ decision }: { decision: RecentDecision }) {
  if (decision.allowed && decision.status !== undefined && decision.status >= 500)
    return (
      <span className={styles.outcomeUpstream}>
        allowed, answered {decision.status}
        {GATEWAY_WORDS[decision.status] ? ` (${GATEWAY_WORDS[decision.status]})` : " by the upstream"}
      </span>
    );
  if (decision.allowed)
    return (
      <span className={styles.outcomeAllowed}>
        allowed
        {decision.status !== undefined ? <span className="muted"> · {decision.status}</span> : null}
      </span>
    );
  if (decision.unavailable) return <span className={styles.outcomeRefused}>refused: limiter unavailable (503)</span>;
  return (
    <span className={styles.outcomeRefused}>
      refused (429)
      {decision.refusedBy ? (
        <>
          {" "}
          by <code>{decision.refusedBy}</code>
        </>
      ) : null}
    </span>
  );
}

/** `?decisions=refused` (the link from "Limited right now") shows the refusals alone. */
function useRefusedOnly(): [boolean, (on: boolean) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  // Local state answers the click at once; the URL follows (router.replace is asynchronous).
  const [on, setOn] = useState(params.get("decisions") === "refused");
  const set = (next: boolean) => {
    setOn(next);
    const query = new URLSearchParams(params);
    if (next) query.set("decisions", "refused");
    else query.delete("decisions");
    const qs = query.toString();
    router.replace(`${pathname}${qs ? `?${qs}` : ""}#recent-decisions`, { scroll: false });
  };
  return [on, set];
}

export function RecentDecisionsCard({ keyId }: { keyId: string }) {
  const decisions = useKeyDecisions(keyId);
  const [refusedOnly, setRefusedOnly] = useRefusedOnly();
  const all = decisions.data?.decisions;
  const list = refusedOnly ? all?.filter((d) => !d.allowed) : all;

  return (
    <ChartCard
      id="recent-decisions"
      title="Recent decisions"
      hint="The latest requests with this key, newest first; refreshed every 2 s."
      actions={
        <label className="inline-check">
          <input type="checkbox" checked={refusedOnly} onChange={(e) => setRefusedOnly(e.target.checked)} /> Refused
          only
        </label>
      }
    >
      {decisions.isPending ? <Loading label="Loading decisions…" /> : null}
      {decisions.error ? <ErrorState error={decisions.error} /> : null}
      {list && list.length === 0 ? (
        <Empty>
          {refusedOnly
            ? "No refused request among the latest decisions of this key."
            : "No recent requests with this key."}
        </Empty>
      ) : null}
      {list && list.length > 0 ? (
        <ScrollRegion label="Recent decisions">
          <table aria-label="Recent decisions">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Request</th>
                <th scope="col">Outcome</th>
                <th scope="col" className="num">
                  Remaining
                </th>
                <th scope="col">Shadow rules that would refuse</th>
              </tr>
            </thead>
            <tbody>
              {list.map((d, i) => (
                <tr key={`${d.atMs}-${i}`}>
                  <td>{formatClock(d.atMs)}</td>
                  <td className="name">
                    <code>
                      {d.method} {d.path}
                    </code>
                  </td>
                  <td>
                    <Outcome decision={d} />
                  </td>
                  <td className="num">{d.remaining ?? <span className="muted">n/a</span>}</td>
                  <td>
                    {d.shadowRefused.length > 0 ? d.shadowRefused.join(", ") : <span className="muted">none</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
    </ChartCard>
  );
}

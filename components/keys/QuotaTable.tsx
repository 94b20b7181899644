/**
 * Remaining quota per rule, as peeked (nothing charged): a bar and the figure, when the next unit
 * comes back, and when the rule is whole again. Rules counted per IP or identifier have no single
 * figure for a key; they say so instead of showing a made-up number.
 */
import { QuotaBar } from "@/components/charts/QuotaBar";
import { ModeBadge, SourceBadge } from "@/components/rules/RuleList";
import { formatWait } from "@/components/format/dateFormat";
import type { RuleQuota } from "./keyTypes";
import { ScrollRegion } from "@/components/tables/ScrollRegion";

const UNREAD: Partial<Record<RuleQuota["scope"], string>> = {
  ip: "counted per client IP",
  identifier: "counted per identifier",
};

function RemainingCell({ rule }: { rule: RuleQuota }) {
  if (rule.remaining === null) return <span className="muted">{UNREAD[rule.scope] ?? "not read"}</span>;
  return <QuotaBar remaining={rule.remaining} capacity={rule.capacity} label={`${rule.name} remaining`} />;
}

export function QuotaTable({
  rules,
  caption,
  showSource = false,
}: {
  rules: RuleQuota[];
  caption: string;
  showSource?: boolean;
}) {
  return (
    <ScrollRegion label={caption}>
      <table aria-label={caption}>
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">Scope</th>
            <th scope="col">Remaining</th>
            <th scope="col">Next unit back</th>
            <th scope="col">Whole again</th>
          </tr>
        </thead>
        <tbody>
          {rules.map((rule) => (
            <tr key={`${rule.source}:${rule.name}`} data-rule={rule.name}>
              <td>
                <code className="name">{rule.name}</code> {showSource ? <SourceBadge source={rule.source} /> : null}{" "}
                {rule.mode === "shadow" ? <ModeBadge mode="shadow" /> : null}
              </td>
              <td>{rule.scope}</td>
              <td>
                <RemainingCell rule={rule} />
              </td>
              <td>
                {rule.retryAfterMs === null
                  ? ""
                  : rule.retryAfterMs === 0
                    ? "available now"
                    : `in ${formatWait(rule.retryAfterMs)}`}
              </td>
              <td>{rule.resetMs === null ? "" : rule.resetMs === 0 ? "now" : `in ${formatWait(rule.resetMs)}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

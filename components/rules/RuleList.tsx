/**
 * A rule list, read-only: what is in force. With `source` on each rule (a key's effective rules),
 * a badge tells tenant rules from its tier's rules and the key's overrides.
 */
import type { ReactNode } from "react";
import type { RuleSource } from "@/lib/policy/keys/keyAnswers";
import type { Rule } from "@/lib/policy/rules/ruleSchema";
import { ALGORITHM_GUIDE, describeDuration } from "./algorithmGuide";
import { descriptorText } from "./envoyDescriptor";
import { formatLimit } from "./duration";
import styles from "./RuleEditor.module.css";
import { ScrollRegion } from "@/components/tables/ScrollRegion";

export type { RuleSource };
export type ListedRule = Rule & { source?: RuleSource };

export function describeMatch(rule: Rule): string {
  if (rule.match.descriptor) return `Envoy: ${descriptorText(rule.match.descriptor)}`;
  const methods = rule.match.methods?.join(", ") ?? "any method";
  return `${methods} ${rule.match.path ?? "any path"}${rule.match.caseInsensitive ? " (any case)" : ""}`;
}

export function SourceBadge({ source }: { source: RuleSource }) {
  if (source === "tier")
    return (
      <span className={`badge ${styles.overrideBadge}`} title="The rule of this key's tier (plan)">
        tier rule
      </span>
    );
  return source === "override" ? (
    <span className={`badge ${styles.overrideBadge}`} title="This key's own rule">
      key override
    </span>
  ) : (
    <span className={`badge ${styles.tenantBadge}`} title="Inherited from the tenant">
      tenant rule
    </span>
  );
}

export function ModeBadge({ mode }: { mode: Rule["mode"] }) {
  return mode === "shadow" ? (
    <span className="badge badge-shadow" title="Counts what it would refuse; never refuses">
      shadow
    </span>
  ) : (
    <span className="badge">enforce</span>
  );
}

export function RuleList<R extends ListedRule>({
  rules,
  caption,
  actions,
}: {
  rules: R[];
  caption: string;
  /** A last column of buttons per rule (the key page's "Override"); none without it. */
  actions?: (rule: R) => ReactNode;
}) {
  const withSource = rules.some((r) => r.source);
  return (
    <ScrollRegion label={caption}>
      <table>
        <caption className={styles.caption}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            {withSource ? <th scope="col">Source</th> : null}
            <th scope="col">Mode</th>
            <th scope="col">Scope</th>
            <th scope="col">Algorithm</th>
            <th scope="col" className="num">
              Limit
            </th>
            <th scope="col" className="num">
              Burst
            </th>
            <th scope="col" className="num">
              Cost
            </th>
            <th scope="col" className="num">
              Penalty
            </th>
            <th scope="col">Applies to</th>
            <th scope="col">Fail mode</th>
            {actions ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rules.map((rule) => (
            <tr key={`${rule.source ?? ""}:${rule.name}`}>
              <td className="name">
                <code>{rule.name}</code>
              </td>
              {withSource ? <td>{rule.source ? <SourceBadge source={rule.source} /> : null}</td> : null}
              <td>
                <ModeBadge mode={rule.mode} />
              </td>
              <td>{rule.scope}</td>
              <td>{ALGORITHM_GUIDE[rule.algorithm].title}</td>
              <td className="num">{formatLimit(rule.limit, rule)}</td>
              <td className="num">
                {ALGORITHM_GUIDE[rule.algorithm].usesBurst ? (
                  rule.burst.toLocaleString("en")
                ) : (
                  <span className="muted">n/a</span>
                )}
              </td>
              <td className="num">
                {rule.cost}
                {rule.chargeOn ? <span className="muted"> on {rule.chargeOn.join(", ")}</span> : null}
              </td>
              <td className="num">
                {rule.blockMs > 0 ? describeDuration(rule.blockMs) : <span className="muted">none</span>}
              </td>
              <td>
                <code>{describeMatch(rule)}</code>
              </td>
              <td>{rule.failMode}</td>
              {actions ? <td>{actions(rule)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

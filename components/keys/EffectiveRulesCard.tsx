"use client";
/**
 * The key's effective rules (tenant rules and its overrides told apart), with, for admins, an
 * "Override" on each rule a key may override (OverrideRuleForm, prefilled from the rule in force),
 * and a note when the key's 429s moved from an overridden rule to another one (ruleOverride.ts
 * `refusalShift`): raising `per-key` often only hands the refusing to `burst`.
 */
import { useState } from "react";
import { Empty } from "@/components/shell/PageState";
import { RuleList } from "@/components/rules/RuleList";
import { formatClock } from "@/components/format/dateFormat";
import { useKeyDecisions } from "./keyQueries";
import type { KeyDetails } from "./keyTypes";
import { OverrideRuleForm } from "./OverrideRuleForm";
import { refusalShift } from "./ruleOverride";

type EffectiveRule = KeyDetails["rules"]["effective"][number];

/** Scopes a key override may have (lib/control/admin/schemas.ts keyRulesSchema). */
const OVERRIDABLE = new Set(["key", "ip", "header", "query"]);

export function EffectiveRulesCard({ details, canEdit }: { details: KeyDetails; canEdit: boolean }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const decisions = useKeyDecisions(details.id);
  const effective = details.rules.effective;
  const shift = decisions.data ? refusalShift(decisions.data.decisions, effective) : null;
  const open = effective.find((r) => r.name === editing);

  const action = (rule: EffectiveRule) =>
    canEdit && OVERRIDABLE.has(rule.scope) ? (
      <button
        type="button"
        className="button-quiet"
        aria-expanded={editing === rule.name}
        aria-label={`${rule.source === "override" ? "Change override" : "Override"} ${rule.name}`}
        onClick={() => {
          setSaved(null);
          setEditing(editing === rule.name ? null : rule.name);
        }}
      >
        {rule.source === "override" ? "Change" : "Override"}
      </button>
    ) : null;

  return (
    <section className="card" aria-labelledby="effective-rules-heading">
      <h2 id="effective-rules-heading">Effective rules</h2>
      <p className="hint">
        What this key&apos;s requests are checked against: the tenant&apos;s rules, then its tier&apos;s, then its own
        overrides, each replacing rules of the same name and adding the others.
      </p>
      {shift ? (
        <p className="notice notice-warn" role="status" data-testid="refusal-shift">
          The 429s moved: since {formatClock(shift.sinceMs)} this key is refused by <code>{shift.to}</code>, no longer
          by the overridden <code>{shift.from}</code>.
        </p>
      ) : null}
      {saved ? (
        <p className="notice notice-ok" role="status">
          {saved}
        </p>
      ) : null}
      {effective.length === 0 ? (
        <Empty>No rules apply: this key is not limited.</Empty>
      ) : (
        <RuleList rules={effective} caption="Effective rules" actions={canEdit ? action : undefined} />
      )}
      {open ? (
        <OverrideRuleForm
          key={`${open.name}:${open.limit}:${open.windowMs}`}
          keyId={details.id}
          rule={open}
          overrides={details.rules.overrides}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setSaved(message);
            setEditing(null);
          }}
        />
      ) : null}
    </section>
  );
}

"use client";
/**
 * The form of one rule: name, scope, algorithm (with its trade-offs), the numbers that algorithm
 * uses (burst only for token_bucket and gcra), cost, match, fail mode and the shadow toggle.
 * Every field shows its own error, from the browser's schema run or from the server's 422.
 */
import { FAIL_MODES, type Scope } from "@/lib/limiter/types";
import { ALGORITHM_GUIDE, describeDuration } from "./algorithmGuide";
import { AlgorithmPicker } from "./AlgorithmPicker";
import { HTTP_METHODS, type HttpMethod, type RuleDraft } from "./ruleDraft";
import type { RuleField } from "./ruleErrors";
import { RuleSelectField, RuleTextField } from "./RuleField";
import { SCOPE_HINT } from "./ruleOwner";
import styles from "./RuleEditor.module.css";

const FAIL_MODE_HINT: Record<(typeof FAIL_MODES)[number], string> = {
  open: "while Redis cannot answer: allow",
  closed: "while Redis cannot answer: refuse with 503",
  local: "while Redis cannot answer: enforce in each instance's memory",
};

export function RuleFieldset({
  draft,
  index,
  errors = {},
  scopes,
  onChange,
  onRemove,
}: {
  draft: RuleDraft;
  index: number;
  errors?: Partial<Record<RuleField, string>>;
  scopes: readonly Scope[];
  onChange: (patch: Partial<RuleDraft>) => void;
  onRemove: () => void;
}) {
  const id = (field: string) => `${draft.draftId}-${field}`;
  const guide = ALGORITHM_GUIDE[draft.algorithm];
  const windowMs = Number(draft.windowMs);
  const title = `Rule ${index + 1}${draft.name.trim() ? `: ${draft.name.trim()}` : ""}`;

  function toggleMethod(method: HttpMethod, on: boolean) {
    onChange({ methods: on ? [...draft.methods, method] : draft.methods.filter((m) => m !== method) });
  }

  return (
    <fieldset className={`${styles.ruleCard} ${draft.mode === "shadow" ? styles.shadow : ""}`}>
      <legend className={styles.ruleLegend}>{title}</legend>
      <div className={styles.ruleTop}>
        <label className={styles.toggle}>
          <input type="checkbox" checked={draft.mode === "shadow"} onChange={(e) => onChange({ mode: e.target.checked ? "shadow" : "enforce" })} />
          Shadow mode <span className="muted">(count what it would refuse, never refuse)</span>
        </label>
        <button type="button" className="button-quiet" onClick={onRemove} aria-label={`Remove ${title}`}>
          Remove
        </button>
      </div>
      {errors.rule ? <p className="form-error">{errors.rule}</p> : null}
      {errors.mode ? <p className="field-error">{errors.mode}</p> : null}

      <div className={styles.grid}>
        <RuleTextField id={id("name")} label="Name" hint="a-z, 0-9, _ and -; unique in this list" error={errors.name} value={draft.name} onChange={(name) => onChange({ name })} />
        <RuleSelectField
          id={id("scope")}
          label="Scope"
          hint={SCOPE_HINT[draft.scope]}
          error={errors.scope}
          value={draft.scope}
          options={scopes.map((s) => ({ value: s, label: s }))}
          onChange={(scope) => onChange({ scope })}
        />
        <RuleSelectField
          id={id("failMode")}
          label="Fail mode"
          hint={FAIL_MODE_HINT[draft.failMode]}
          error={errors.failMode}
          value={draft.failMode}
          options={FAIL_MODES.map((m) => ({ value: m, label: m }))}
          onChange={(failMode) => onChange({ failMode })}
        />
      </div>

      <AlgorithmPicker idPrefix={draft.draftId} value={draft.algorithm} error={errors.algorithm} onChange={(algorithm) => onChange({ algorithm })} />

      <div className={styles.grid}>
        <RuleTextField id={id("limit")} label="Limit" numeric hint={guide.limitHint} error={errors.limit} value={draft.limit} onChange={(limit) => onChange({ limit })} />
        <RuleTextField
          id={id("windowMs")}
          label="Window (ms)"
          numeric
          hint={`${guide.windowHint}${describeDuration(windowMs) ? ` (${describeDuration(windowMs)})` : ""}`}
          error={errors.windowMs}
          value={draft.windowMs}
          onChange={(value) => onChange({ windowMs: value })}
        />
        {guide.usesBurst ? (
          <RuleTextField id={id("burst")} label="Burst" numeric hint={guide.burstHint} error={errors.burst} value={draft.burst} onChange={(burst) => onChange({ burst })} />
        ) : null}
        <RuleTextField id={id("cost")} label="Cost" numeric hint="units each matching request uses" error={errors.cost} value={draft.cost} onChange={(cost) => onChange({ cost })} />
      </div>

      <div className={styles.grid}>
        <fieldset className={styles.methods} aria-describedby={errors["match.methods"] ? id("methods-error") : undefined}>
          <legend>Methods</legend>
          <span className={styles.fieldHint}>none checked: every method</span>
          <div className={styles.methodList}>
            {HTTP_METHODS.map((method) => (
              <label key={method}>
                <input type="checkbox" checked={draft.methods.includes(method)} onChange={(e) => toggleMethod(method, e.target.checked)} /> {method}
              </label>
            ))}
          </div>
          {errors["match.methods"] ? (
            <p id={id("methods-error")} className="field-error">
              {errors["match.methods"]}
            </p>
          ) : null}
        </fieldset>
        <RuleTextField
          id={id("path")}
          label="Path"
          wide
          placeholder="/api/v1/**"
          hint="glob under /api/v1: * one segment, ** any number; empty: every path"
          error={errors["match.path"]}
          value={draft.path}
          onChange={(path) => onChange({ path })}
        />
      </div>
    </fieldset>
  );
}

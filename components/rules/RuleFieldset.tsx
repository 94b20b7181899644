"use client";
/**
 * The drawer of one rule: name, scope, algorithm, the numbers that algorithm uses (burst only for
 * token_bucket and gcra), the window and the penalty as durations, cost, match, fail mode and the shadow toggle,
 * in a compact grid; a descriptor rule edits its Envoy descriptor (DescriptorEditor) instead of methods, path and
 * charged responses. Every field shows its own error, from the browser's schema run or from the
 * server's 422, in the form's words.
 */
import { FAIL_MODES, ON_MISSING, STATUS_CLASSES, type Scope, type StatusClass } from "@/lib/limiter/types";
import { ALGORITHM_GUIDE } from "./algorithmGuide";
import { AlgorithmPicker } from "./AlgorithmPicker";
import { DescriptorEditor } from "./DescriptorEditor";
import { DURATION_HELP } from "./duration";
import { HTTP_METHODS, type HttpMethod } from "@/lib/http/httpMethods";
import type { RuleDraft } from "./ruleDraft";
import type { RuleField } from "./ruleFieldLabels";
import { RuleSelectField, RuleTextField } from "./RuleField";

/** fixed_window's choice between a window and a calendar period (rule field period). */
const PERIOD_OPTIONS: readonly { value: RuleDraft["period"]; label: string }[] = [
  { value: "", label: "none (a window)" },
  { value: "day", label: "day" },
  { value: "week", label: "week" },
  { value: "month", label: "month" },
];
import { SCOPE_HINT } from "./ruleOwner";
import styles from "./RuleEditor.module.css";

const ON_MISSING_HINT: Record<(typeof ON_MISSING)[number], string> = {
  skip: "missing: the rule does not apply",
  refuse: "missing: refuse with 400",
};

const FAIL_MODE_HINT: Record<(typeof FAIL_MODES)[number], string> = {
  open: "Redis down: allow",
  closed: "Redis down: refuse (503)",
  local: "Redis down: enforce in memory",
};

export function RuleFieldset({
  draft,
  title,
  errors = {},
  scopes,
  onChange,
}: {
  draft: RuleDraft;
  title: string;
  errors?: Partial<Record<RuleField, string>>;
  scopes: readonly Scope[];
  onChange: (patch: Partial<RuleDraft>) => void;
}) {
  const id = (field: string) => `${draft.draftId}-${field}`;
  const guide = ALGORITHM_GUIDE[draft.algorithm];
  const calendar = draft.algorithm === "fixed_window" && draft.period !== "";
  // Envoy's calls carry no method, path or response: a descriptor rule has none of those fields.
  const byDescriptor = draft.scope === "descriptor";

  function toggleMethod(method: HttpMethod, on: boolean) {
    onChange({ methods: on ? [...draft.methods, method] : draft.methods.filter((m) => m !== method) });
  }

  function toggleClass(cls: StatusClass, on: boolean) {
    onChange({ chargeOn: on ? [...draft.chargeOn, cls] : draft.chargeOn.filter((c) => c !== cls) });
  }

  return (
    <fieldset className={styles.ruleCard}>
      <legend className="visually-hidden">{title}</legend>
      {errors.rule ? <p className="form-error">{errors.rule}</p> : null}
      {errors.mode ? <p className="field-error">{errors.mode}</p> : null}
      <div className={styles.grid}>
        <RuleTextField
          id={id("name")}
          label="Name"
          hint="a-z, 0-9, _ and -"
          error={errors.name}
          value={draft.name}
          onChange={(name) => onChange({ name })}
        />
        <RuleSelectField
          id={id("scope")}
          label="Scope"
          hint={SCOPE_HINT[draft.scope]}
          error={errors.scope}
          value={draft.scope}
          options={(scopes.includes(draft.scope) ? scopes : [...scopes, draft.scope]).map((s) => ({
            value: s,
            label: s,
          }))}
          onChange={(scope) =>
            // A descriptor rule needs an entry: offer one to type into rather than an empty list.
            onChange(
              scope === "descriptor" && draft.descriptor.length === 0
                ? { scope, descriptor: [{ key: "remote_address", value: "" }] }
                : { scope },
            )
          }
        />
        {byDescriptor ? (
          <DescriptorEditor
            id={id("descriptor")}
            entries={draft.descriptor}
            error={errors["match.descriptor"]}
            onChange={(descriptor) => onChange({ descriptor })}
          />
        ) : null}
        {draft.scope === "header" || draft.scope === "query" ? (
          <>
            <RuleTextField
              id={id("scopeKey")}
              label={draft.scope === "header" ? "Header" : "Query parameter"}
              placeholder={draft.scope === "header" ? "x-user-id" : "user"}
              hint={
                draft.scope === "header" ? "counted per value of this header" : "counted per value of this parameter"
              }
              error={errors.scopeKey}
              value={draft.scopeKey}
              onChange={(scopeKey) => onChange({ scopeKey })}
            />
            <RuleSelectField
              id={id("onMissing")}
              label="When missing"
              hint={ON_MISSING_HINT[draft.onMissing]}
              error={errors.onMissing}
              value={draft.onMissing}
              options={ON_MISSING.map((m) => ({ value: m, label: m }))}
              onChange={(onMissing) => onChange({ onMissing })}
            />
          </>
        ) : null}
        <AlgorithmPicker
          idPrefix={draft.draftId}
          value={draft.algorithm}
          error={errors.algorithm}
          onChange={(algorithm) => onChange({ algorithm })}
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
        <RuleTextField
          id={id("limit")}
          label="Limit"
          numeric
          hint={guide.limitHint}
          error={errors.limit}
          value={draft.limit}
          onChange={(limit) => onChange({ limit })}
        />
        {draft.algorithm === "fixed_window" ? (
          <RuleSelectField
            id={id("period")}
            label="Calendar period"
            hint="count per window, or per calendar day, week (from Monday) or month"
            error={errors.period}
            value={draft.period}
            options={PERIOD_OPTIONS}
            onChange={(period) => onChange({ period })}
          />
        ) : null}
        {calendar ? (
          <RuleTextField
            id={id("timeZone")}
            label="Time zone"
            placeholder="UTC"
            hint="an IANA time zone, e.g. Europe/Berlin (empty: UTC)"
            error={errors.timeZone}
            value={draft.timeZone}
            onChange={(timeZone) => onChange({ timeZone })}
          />
        ) : (
          <RuleTextField
            id={id("window")}
            label={guide.usesBurst ? "Refill period" : "Window"}
            hint={guide.usesBurst ? `The time in which Limit units refill: ${DURATION_HELP}` : DURATION_HELP}
            error={errors.windowMs}
            value={draft.window}
            onChange={(window) => onChange({ window })}
          />
        )}
        {guide.usesBurst ? (
          <RuleTextField
            id={id("burst")}
            label="Burst"
            numeric
            hint={guide.burstHint}
            error={errors.burst}
            value={draft.burst}
            onChange={(burst) => onChange({ burst })}
          />
        ) : null}
        {byDescriptor ? null : (
          <RuleTextField
            id={id("cost")}
            label="Cost"
            numeric
            hint="units per request"
            error={errors.cost}
            value={draft.cost}
            onChange={(cost) => onChange({ cost })}
          />
        )}
        <RuleTextField
          id={id("penalty")}
          label="Penalty"
          placeholder="none"
          hint="once this rule refuses a client, refuse it for this long: 30 s, 10 min, 1 h; empty: none"
          error={errors.blockMs}
          value={draft.penalty}
          onChange={(penalty) => onChange({ penalty })}
        />
        {byDescriptor ? null : (
          <>
            <fieldset
              className={styles.methods}
              aria-describedby={errors["match.methods"] ? id("methods-error") : undefined}
            >
              <legend>Methods</legend>
              <div className={styles.methodList}>
                {HTTP_METHODS.map((method) => (
                  <label key={method}>
                    <input
                      type="checkbox"
                      checked={draft.methods.includes(method)}
                      onChange={(e) => toggleMethod(method, e.target.checked)}
                    />{" "}
                    {method}
                  </label>
                ))}
              </div>
              <span className={styles.fieldHint}>none checked: every method</span>
              {errors["match.methods"] ? (
                <p id={id("methods-error")} className="field-error">
                  {errors["match.methods"]}
                </p>
              ) : null}
            </fieldset>
            <fieldset
              className={styles.methods}
              aria-describedby={`${id("chargeOn-hint")}${errors.chargeOn ? ` ${id("chargeOn-error")}` : ""}`}
              aria-invalid={errors.chargeOn ? true : undefined}
            >
              <legend>Charge only responses</legend>
              <div className={styles.methodList}>
                {STATUS_CLASSES.map((cls) => (
                  <label key={cls}>
                    <input
                      type="checkbox"
                      checked={draft.chargeOn.includes(cls)}
                      onChange={(e) => toggleClass(cls, e.target.checked)}
                    />{" "}
                    {cls}
                  </label>
                ))}
              </div>
              <span id={id("chargeOn-hint")} className={styles.fieldHint}>
                checked: only answers of these classes count (reserved when admitted, given back otherwise), e.g. only
                4xx against credential stuffing; none: charged when admitted
              </span>
              {errors.chargeOn ? (
                <p id={id("chargeOn-error")} className="field-error">
                  {errors.chargeOn}
                </p>
              ) : null}
            </fieldset>
            <RuleTextField
              id={id("path")}
              label="Path"
              wide
              placeholder="/orders/**"
              hint="the path the protected API sees: /orders/** for /api/v1/orders/... through the gateway, as sent on a tenant's host, the forwarded path for forward auth, /api/v1/echo/** for echo; * one segment, ** any; empty: every path"
              error={errors["match.path"]}
              value={draft.path}
              onChange={(path) => onChange({ path })}
            />
            <label className={styles.toggle}>
              <input
                type="checkbox"
                checked={draft.pathAnyCase}
                aria-invalid={errors["match.caseInsensitive"] ? true : undefined}
                aria-describedby={errors["match.caseInsensitive"] ? id("pathAnyCase-error") : undefined}
                onChange={(e) => onChange({ pathAnyCase: e.target.checked })}
              />
              Path in any case{" "}
              <span className="muted">(/LOGIN counts as /login: for APIs whose router ignores case)</span>
            </label>
            {errors["match.caseInsensitive"] ? (
              <p id={id("pathAnyCase-error")} className="field-error">
                {errors["match.caseInsensitive"]}
              </p>
            ) : null}
          </>
        )}
        <label className={styles.toggle}>
          <input
            type="checkbox"
            checked={draft.mode === "shadow"}
            onChange={(e) => onChange({ mode: e.target.checked ? "shadow" : "enforce" })}
          />
          Shadow mode <span className="muted">(count, never refuse)</span>
        </label>
      </div>
    </fieldset>
  );
}

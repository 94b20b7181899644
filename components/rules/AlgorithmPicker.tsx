"use client";
/**
 * The algorithm of one rule: a compact select. What each algorithm trades off is explained once
 * per editor, in AlgorithmHelp (collapsed), not under every rule.
 */
import { RULE_ALGORITHMS, type Algorithm } from "@/lib/limiter/types";
import { ALGORITHM_GUIDE } from "./algorithmGuide";
import { RuleSelectField } from "./RuleField";

export function AlgorithmPicker({
  idPrefix,
  value,
  error,
  onChange,
}: {
  idPrefix: string;
  value: Algorithm;
  error?: string;
  onChange: (algorithm: Algorithm) => void;
}) {
  return (
    <RuleSelectField
      id={`${idPrefix}-algorithm`}
      label="Algorithm"
      hint={ALGORITHM_GUIDE[value].summary}
      error={error}
      value={value}
      options={RULE_ALGORITHMS.map((a) => ({ value: a, label: ALGORITHM_GUIDE[a].title }))}
      onChange={onChange}
    />
  );
}

/** The trade-offs of every algorithm, once per editor, collapsed until asked for. */
export function AlgorithmHelp() {
  return (
    <details className="algorithm-help">
      <summary>How the algorithms differ</summary>
      <dl>
        {RULE_ALGORITHMS.map((algorithm) => (
          <div key={algorithm}>
            <dt>
              {ALGORITHM_GUIDE[algorithm].title} <code className="muted">{algorithm}</code>
            </dt>
            <dd>{ALGORITHM_GUIDE[algorithm].tradeOff}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

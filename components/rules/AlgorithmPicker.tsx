"use client";
/** Radio choice of the algorithm, each option with its trade-off so operators compare before picking. */
import { ALGORITHMS, type Algorithm } from "@/lib/limiter/types";
import { ALGORITHM_GUIDE } from "./algorithmGuide";
import styles from "./RuleEditor.module.css";

export function AlgorithmPicker({ idPrefix, value, error, onChange }: { idPrefix: string; value: Algorithm; error?: string; onChange: (algorithm: Algorithm) => void }) {
  const errorId = `${idPrefix}-algorithm-error`;
  return (
    <fieldset className={styles.algorithms} aria-describedby={error ? errorId : undefined}>
      <legend>Algorithm</legend>
      {ALGORITHMS.map((algorithm) => {
        const guide = ALGORITHM_GUIDE[algorithm];
        const id = `${idPrefix}-algorithm-${algorithm}`;
        return (
          <div key={algorithm} className={styles.algorithmOption}>
            <input type="radio" id={id} name={`${idPrefix}-algorithm`} value={algorithm} checked={value === algorithm} onChange={() => onChange(algorithm)} aria-describedby={`${id}-tradeoff`} />
            <div>
              <label htmlFor={id}>
                <strong>{guide.title}</strong> <code className="muted">{algorithm}</code>
              </label>
              <span id={`${id}-tradeoff`} className={styles.tradeOff}>
                {guide.tradeOff}
              </span>
            </div>
          </div>
        );
      })}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

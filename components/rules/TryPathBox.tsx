"use client";
/**
 * "Try a path": the operator types a request (`GET /orders/42`) and sees which of the rules being
 * edited it meets, decided by the server's own matcher (tryPath.ts). Saved or not, valid or not:
 * the drafts as they stand. It sits inside the rule form, so Enter in it must not submit the form.
 */
import { useId, useState, type KeyboardEvent } from "react";
import type { RuleDraft } from "./ruleDraft";
import { parseTriedRequest, tryRules } from "./tryPath";
import styles from "./RuleEditor.module.css";

export const MATCHED_PATH_SENTENCE =
  "Rules match the path the protected API sees: through the gateway the path without /api/v1 (/orders/42 for /api/v1/orders/42), on a tenant's host the path as sent, for forward auth the forwarded URI's path, and for Sluice's own echo and check their full path (/api/v1/echo/…).";

export function TryPathBox({ drafts }: { drafts: readonly RuleDraft[] }) {
  const id = useId();
  const [text, setText] = useState("");
  const tried = text.trim() === "" ? null : parseTriedRequest(text);
  const results = tried?.ok ? tryRules(drafts, tried.method, tried.path) : [];
  const matching = results.filter((r) => r.verdict === "matches").length;

  function keepFormClosed(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter") event.preventDefault();
  }

  return (
    <section className={styles.tryPath} aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Try a path</h3>
      <p id={`${id}-hint`} className={styles.fieldHint}>
        {MATCHED_PATH_SENTENCE}
      </p>
      <div className="field">
        <label htmlFor={`${id}-request`}>Request</label>
        <input
          id={`${id}-request`}
          type="text"
          value={text}
          placeholder="GET /orders/42"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={keepFormClosed}
        />
      </div>
      <div aria-live="polite" data-testid="try-path-result">
        {tried === null ? null : !tried.ok ? (
          <p className="field-error">{tried.problem}</p>
        ) : (
          <>
            {tried.note ? <p className="notice notice-warn">{tried.note}</p> : null}
            <p>
              {tried.method} {tried.path}:{" "}
              {results.length === 0
                ? "no rules in this list."
                : matching === 0
                  ? "no rule in this list matches."
                  : matching === 1
                    ? "1 rule matches."
                    : `${matching} rules match.`}
            </p>
            {results.length > 0 ? (
              <ul aria-label="Each rule's verdict" className={styles.tryList}>
                {results.map((r) => (
                  <li key={r.draftId} data-verdict={r.verdict}>
                    <strong>{r.label}</strong>: {r.verdict}
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

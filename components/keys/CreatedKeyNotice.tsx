"use client";
/**
 * The one and only showing of a new API key. Sluice stores only its hash, so once this notice is
 * dismissed (or the page left) the key cannot be shown again; the warning says so plainly. Also
 * the one showing of a new admin API token (`noun="token"`, components/tokens).
 */
import { useRef, useState } from "react";
import type { CreatedKey } from "./keyTypes";
import styles from "./keys.module.css";

export function CreatedKeyNotice({
  created,
  onDone,
  noun = "key",
}: {
  created: Pick<CreatedKey, "name" | "key">;
  onDone: () => void;
  noun?: "key" | "token";
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");

  async function copy() {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopyState("copied");
    } catch {
      // No clipboard access (an insecure origin, a denied permission): select it for a manual copy.
      inputRef.current?.select();
      setCopyState("failed");
    }
  }

  return (
    <section className={`notice notice-warn ${styles.createdKey}`} aria-labelledby="created-key-heading">
      <h3 id="created-key-heading">
        New {noun} <span className="name">{created.name}</span>
      </h3>
      <p role="alert">
        <strong>Copy this {noun} now. It is shown only once:</strong> Sluice keeps only a hash of it and cannot show it
        again. If it is lost, create a new {noun} and revoke this one.
      </p>
      <div className={styles.keyRow}>
        <label htmlFor="created-key-value" className={styles.visuallyHidden}>
          The new {noun}
        </label>
        <input
          id="created-key-value"
          ref={inputRef}
          readOnly
          value={created.key}
          className={styles.keyValue}
          onFocus={(e) => e.target.select()}
          spellCheck={false}
        />
        <button type="button" className="button-primary" onClick={copy}>
          {copyState === "copied" ? "Copied" : `Copy ${noun}`}
        </button>
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
      <p className={styles.copyStatus} role="status" aria-live="polite">
        {copyState === "copied"
          ? `The ${noun} is on your clipboard.`
          : copyState === "failed"
            ? `Copying failed: the ${noun} is selected, copy it by hand.`
            : ""}
      </p>
    </section>
  );
}

"use client";
/**
 * A button for a change that cannot be taken back lightly (revert, delete, revoke): the first
 * click asks, in place, "question? [confirm] [Cancel]"; only the confirm button acts. Focus goes to
 * Cancel, so a stray Enter does nothing harmful. While the action runs, both are disabled.
 */
import { useEffect, useRef, useState } from "react";

export function ConfirmButton({
  label,
  question,
  confirmLabel = label,
  onConfirm,
  disabled,
  danger = true,
}: {
  label: string;
  question: string;
  confirmLabel?: string;
  onConfirm: () => Promise<unknown> | void;
  disabled?: boolean;
  danger?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const [running, setRunning] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (asking) cancelRef.current?.focus();
  }, [asking]);

  if (!asking) {
    return (
      <button type="button" onClick={() => setAsking(true)} disabled={disabled}>
        {label}
      </button>
    );
  }

  async function confirm() {
    setRunning(true);
    try {
      await onConfirm();
    } finally {
      setRunning(false);
      setAsking(false);
    }
  }

  return (
    <span className="confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button type="button" className={danger ? "button-danger" : "button-primary"} onClick={confirm} disabled={running}>
        {running ? "Working…" : confirmLabel}
      </button>
      <button type="button" ref={cancelRef} onClick={() => setAsking(false)} disabled={running}>
        Cancel
      </button>
    </span>
  );
}

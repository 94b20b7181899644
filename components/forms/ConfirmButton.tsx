"use client";
/**
 * A button for a change that cannot be taken back lightly (revert, delete, revoke): the first
 * click asks, in place, "question [confirm] [Cancel]"; only the confirm button acts. Focus goes to
 * Cancel, so a stray Enter does nothing harmful. While the action runs, both are disabled.
 * `question` may depend on what is read once asking starts (`onAskingChange` says when): while
 * `pending`, the confirm button waits. `warning` styles a question whose effect is drastic
 * (e.g. a revert that removes every rule of a tenant).
 */
import { useEffect, useRef, useState } from "react";

export function ConfirmButton({
  label,
  question,
  confirmLabel = label,
  onConfirm,
  onAskingChange,
  disabled,
  pending = false,
  warning = false,
  danger = true,
  questionTestId,
}: {
  label: string;
  question: string;
  confirmLabel?: string;
  onConfirm: () => Promise<unknown> | void;
  onAskingChange?: (asking: boolean) => void;
  disabled?: boolean;
  pending?: boolean;
  warning?: boolean;
  danger?: boolean;
  questionTestId?: string;
}) {
  const [asking, setAskingState] = useState(false);
  const [running, setRunning] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);

  function setAsking(next: boolean) {
    setAskingState(next);
    onAskingChange?.(next);
  }

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
    <span className={warning ? "confirm confirm-warning" : "confirm"} role="group" aria-label={question}>
      <span data-testid={questionTestId}>{question}</span>
      <button
        type="button"
        className={danger ? "button-danger" : "button-primary"}
        onClick={confirm}
        disabled={running || pending}
      >
        {running ? "Working…" : confirmLabel}
      </button>
      <button type="button" ref={cancelRef} onClick={() => setAsking(false)} disabled={running}>
        Cancel
      </button>
    </span>
  );
}

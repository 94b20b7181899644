/**
 * A labelled input with its message under it: the field's error when there is one (the input is
 * then aria-invalid and described by it, `<id>-error`), else its hint if given (`<id>-hint`).
 * Every other input attribute (type, value, onChange, autoComplete…) is passed through.
 */
import type { InputHTMLAttributes, ReactNode } from "react";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "aria-invalid" | "aria-describedby">;

interface FieldProps {
  id: string;
  label: string;
  error?: string | null;
  hint?: ReactNode;
  /** Added to the wrapper's `field` class. */
  fieldClassName?: string;
}

export function TextField({ id, label, error, hint, fieldClassName, ...input }: InputProps & FieldProps) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className={fieldClassName ? `field ${fieldClassName}` : "field"}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        {...input}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : hint ? hintId : undefined}
      />
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : hint ? (
        <p id={hintId} className="hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

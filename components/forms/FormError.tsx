/**
 * The parts every dashboard form repeats: the message above the form for what no field owns
 * (announced as an alert), and the submit button that says it is working while the request runs.
 */
import type { ReactNode } from "react";

export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}

export function SubmitButton({
  pending,
  pendingLabel,
  children,
}: {
  pending: boolean;
  pendingLabel: string;
  children: ReactNode;
}) {
  return (
    <button type="submit" className="button-primary" disabled={pending}>
      {pending ? pendingLabel : children}
    </button>
  );
}

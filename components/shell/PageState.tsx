/**
 * The three states every data view has besides "here is the data": loading, empty, and failed
 * (showing the problem's `detail`, which the server writes for operators to read).
 */
import type { ReactNode } from "react";
import { ApiError, errorMessage } from "@/components/api/apiClient";

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p className="state state-loading" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state state-empty">{children}</p>;
}

export function ErrorState({ error }: { error: unknown }) {
  const title = error instanceof ApiError && error.status > 0 ? `${error.title} (${error.status})` : "Error";
  return (
    <div className="state state-error" role="alert">
      <strong>{title}</strong>
      <p>{errorMessage(error)}</p>
    </div>
  );
}

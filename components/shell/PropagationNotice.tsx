"use client";
/**
 * A change the admin API saved while Redis could not carry its notice to the other instances
 * (`Sluice-Propagation: delayed`, components/api/apiClient.ts): the operator is told it is in
 * force on this instance now and on the others only within the given seconds, until dismissed.
 */
import { useEffect, useState } from "react";
import { PROPAGATION_DELAYED_EVENT } from "@/components/api/apiClient";

export function PropagationNotice() {
  const [within, setWithin] = useState<number | null>(null);
  useEffect(() => {
    const onDelayed = (event: Event) => setWithin((event as CustomEvent<number>).detail);
    window.addEventListener(PROPAGATION_DELAYED_EVENT, onDelayed);
    return () => window.removeEventListener(PROPAGATION_DELAYED_EVENT, onDelayed);
  }, []);
  if (within === null) return null;
  return (
    <div className="banner notice-warn" role="status">
      Saved and in force on this instance. Redis could not carry the change to the other instances: they apply it within{" "}
      {within} s, at their next full reload.{" "}
      <button type="button" className="button-quiet" onClick={() => setWithin(null)}>
        Dismiss
      </button>
    </div>
  );
}

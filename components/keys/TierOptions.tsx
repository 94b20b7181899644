"use client";
import type { TierView } from "@/lib/policy/tiers/tierAnswers";

/** The tiers' names as a <datalist> for tier inputs (a key may also name a tier that has no rules yet). */
export function TierOptions({ id, tiers }: { id: string; tiers: TierView[] | undefined }) {
  return (
    <datalist id={id}>
      {(tiers ?? []).map((tier) => (
        <option key={tier.name} value={tier.name} />
      ))}
    </datalist>
  );
}

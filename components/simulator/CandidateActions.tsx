"use client";
/**
 * What an admin does with a simulated candidate, both through the audited PUT of the tenant's
 * rules: trial it in shadow mode (the current rules stay, the changed candidate rules are added
 * as shadow rules: see shadowCandidate.ts), or enforce it (the candidate replaces the rules,
 * after a confirmation). Both read the tenant's rules afresh just before writing, so a change
 * made elsewhere since the page loaded is kept by "shadow" (and replaced, as asked, by "enforce").
 * Viewers never see these controls; the server refuses them anyway.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { apiGet, apiSend, errorMessage } from "@/components/api/apiClient";
import { ownerQueryPrefix, rulesPath, rulesQueryKey, type RuleOwner } from "@/components/rules/ruleOwner";
import { ConfirmButton } from "@/components/forms/ConfirmButton";
import type { Rule, RuleInput } from "@/lib/policy/rules/ruleSchema";
import { withShadowCandidate } from "./shadowCandidate";

type Outcome = { kind: "ok"; text: string } | { kind: "error"; text: string };

export function CandidateActions({
  tenantId,
  candidate,
  stale,
  onEnforceRefused,
  onSaved,
}: {
  tenantId: string;
  /** The candidate as it was simulated (never an edit made after the run). */
  candidate: RuleInput[];
  /** The candidate was edited since this run: the actions wait for a new run. */
  stale: boolean;
  /** A 422 to the enforce PUT, whose body is the candidate itself: the caller places it on the fields. */
  onEnforceRefused: (error: unknown) => boolean;
  /** The tenant's rules after a change made here. */
  onSaved: (rules: Rule[]) => void;
}) {
  const owner: RuleOwner = { kind: "tenant", tenantId };
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  function saved(rules: Rule[]) {
    queryClient.setQueryData(rulesQueryKey(owner), rules);
    void queryClient.invalidateQueries({ queryKey: ownerQueryPrefix(owner) });
    onSaved(rules);
  }

  const shadow = useMutation({
    mutationFn: async () => {
      const plan = withShadowCandidate(await apiGet<Rule[]>(rulesPath(owner)), candidate);
      if (plan.added.length === 0) return { added: [], rules: null };
      return { added: plan.added, rules: await apiSend<Rule[]>("PUT", rulesPath(owner), plan.rules) };
    },
    onMutate: () => setOutcome(null),
    onSuccess: ({ added, rules }) => {
      if (!rules) {
        setOutcome({ kind: "error", text: "The candidate equals the current rules: there is nothing to trial." });
        return;
      }
      saved(rules);
      setOutcome({
        kind: "ok",
        text: `Started in shadow mode: ${added.join(", ")} now count${added.length === 1 ? "s" : ""} what ${added.length === 1 ? "it" : "they"} would refuse, without refusing; the current rules stay in force.`,
      });
    },
    onError: (error) => setOutcome({ kind: "error", text: `Nothing was changed: ${errorMessage(error)}` }),
  });

  const enforce = useMutation({
    mutationFn: () => apiSend<Rule[]>("PUT", rulesPath(owner), candidate),
    onMutate: () => setOutcome(null),
    onSuccess: (rules) => {
      saved(rules);
      setOutcome({
        kind: "ok",
        text: `Enforced: the tenant's ${rules.length === 1 ? "rule is" : `${rules.length} rules are`} now the candidate, in force on every instance.`,
      });
    },
    onError: (error) => {
      const placed = onEnforceRefused(error);
      setOutcome({
        kind: "error",
        text: placed
          ? `The server refused the candidate: ${errorMessage(error)}`
          : `Nothing was changed: ${errorMessage(error)}`,
      });
    },
  });

  const busy = shadow.isPending || enforce.isPending;
  return (
    <div>
      <h3>Apply the candidate</h3>
      <p className="hint">
        Shadow mode trials what the candidate would refuse more than the current rules: a rule it removes or loosens
        stays in force until you enforce. The shadow series appears in the <Link href="/">overview</Link> and on the{" "}
        <Link href={`/tenants/${tenantId}`}>tenant page</Link>. Both changes are recorded in the{" "}
        <Link href={`/audit?tenantId=${encodeURIComponent(tenantId)}`}>audit log</Link>.
      </p>
      {stale ? (
        <p className="notice notice-warn" role="status">
          The candidate was edited after this run. Run the simulation again before starting it in shadow mode or
          enforcing it.
        </p>
      ) : null}
      <div>
        <button type="button" onClick={() => shadow.mutate()} disabled={busy || stale}>
          {shadow.isPending ? "Starting…" : "Start in shadow mode"}
        </button>{" "}
        <ConfirmButton
          label="Enforce"
          question="Replace all of the tenant's rules, shadow trials included, with the candidate?"
          confirmLabel="Enforce the candidate"
          onConfirm={() => enforce.mutateAsync().catch(() => undefined)}
          disabled={busy || stale}
        />
      </div>
      {outcome ? (
        <p
          className={outcome.kind === "ok" ? "notice notice-ok" : "form-error"}
          role={outcome.kind === "ok" ? "status" : "alert"}
        >
          {outcome.text}
        </p>
      ) : null}
    </div>
  );
}

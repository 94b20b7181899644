"use client";
/**
 * The tenant's tiers (plans) on its page: each tier with its rules and how many keys are in it.
 * Admins open a tier by name (a new name makes a new tier once its rules are saved), edit its
 * rules with the rule editor used for key overrides, and delete its rules. A tier's rules mean
 * what a key's overrides mean: a same-named rule replaces the tenant's, others are added; a key's
 * own overrides come on top (lib/policy/tiers).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiSend, errorMessage } from "@/components/api/apiClient";
import { RuleEditor } from "@/components/rules/RuleEditor";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { TextField } from "@/components/forms/TextField";
import { tierNameSchema } from "@/lib/policy/tiers/tierName";
import { tenantPath } from "@/components/api/tenantQueries";
import { useTiers } from "@/components/api/tierQueries";
import { ScrollRegion } from "@/components/tables/ScrollRegion";

function OpenTierForm({ onOpen }: { onOpen: (tier: string) => void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = tierNameSchema.safeParse(name.trim());
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "tier is invalid");
      return;
    }
    setError(null);
    setName("");
    onOpen(parsed.data);
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Open a tier">
      <div className="form-row">
        <TextField
          id="tier-name"
          label="Tier name"
          value={name}
          placeholder="pro"
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
          error={error}
          hint="An existing tier, or a new one: it exists once it has rules or a key names it."
        />
        <div className="form-actions">
          <button type="submit">Open tier</button>
        </div>
      </div>
    </form>
  );
}

function DeleteTierButton({ tenantId, tier, onDeleted }: { tenantId: string; tier: string; onDeleted: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      apiSend<void>("DELETE", `${tenantPath(tenantId)}/tiers/${encodeURIComponent(tier)}/rules`, undefined),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["tenant", tenantId] });
      onDeleted();
    },
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        remove.mutate();
      }}
      aria-label={`Delete tier ${tier}`}
    >
      <FormError message={remove.error ? errorMessage(remove.error) : null} />
      <SubmitButton pending={remove.isPending} pendingLabel="Deleting…">
        Delete tier rules
      </SubmitButton>
    </form>
  );
}

export function TiersCard({ tenantId, canEdit }: { tenantId: string; canEdit: boolean }) {
  const tiers = useTiers(tenantId);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section className="card" aria-labelledby="tiers-heading">
      <div className="card-header">
        <h2 id="tiers-heading">Tiers</h2>
      </div>
      <p className="hint">
        Plans such as free, pro or enterprise: named sets of override rules. A key is in the tier its settings name; a
        JWT caller in the tier its <code>tierClaim</code> claim names. A tier rule named like a tenant rule replaces it
        for the tier&apos;s callers, others are added; a key&apos;s own overrides come last.
      </p>
      {tiers.isPending ? <Loading label="Loading tiers…" /> : null}
      {tiers.error ? <ErrorState error={tiers.error} /> : null}
      {tiers.data && tiers.data.length === 0 ? (
        <Empty>No tiers: every caller has the tenant&apos;s rules.</Empty>
      ) : null}
      {tiers.data && tiers.data.length > 0 ? (
        <ScrollRegion label="Tiers">
          <table aria-label="Tiers">
            <thead>
              <tr>
                <th scope="col">Tier</th>
                <th scope="col" className="num">
                  Rules
                </th>
                <th scope="col" className="num">
                  Keys
                </th>
                <th scope="col">Rules of the tier</th>
              </tr>
            </thead>
            <tbody>
              {tiers.data.map((tier) => (
                <tr key={tier.name}>
                  <td className="name">
                    <code>{tier.name}</code>
                  </td>
                  <td className="num">{tier.rules.length}</td>
                  <td className="num">{tier.keys}</td>
                  <td>
                    <button
                      type="button"
                      className="button-quiet"
                      aria-label={`${canEdit ? "Edit" : "Show"} tier ${tier.name}`}
                      onClick={() => setOpen(tier.name)}
                    >
                      {canEdit ? "Edit" : "Show"}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
      {canEdit ? <OpenTierForm onOpen={setOpen} /> : null}
      {open !== null ? (
        <div className="stack">
          <RuleEditor
            key={open}
            owner={{ kind: "tier", tenantId, tier: open }}
            heading={`Tier ${open}`}
            description="Scope key, ip, header or query. Saved rules are in force on every instance within 1 s."
            emptyText="No rules: callers in this tier have the tenant's rules."
          />
          <div className="form-actions">
            {canEdit ? <DeleteTierButton tenantId={tenantId} tier={open} onDeleted={() => setOpen(null)} /> : null}
            <button type="button" className="button-quiet" onClick={() => setOpen(null)}>
              Close tier
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}

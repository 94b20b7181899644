"use client";
/**
 * What the key page's grants card and the caller-grants card share: the table of running grants
 * (with an "End" button for admins) and the units / rule / until fields with the input they make
 * (the API's grant schemas check it: lib/control/admin/schemas.ts), and ending a grant
 * (DELETE `<grants path>/{id}`). Each card adds its owner.
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiSend, errorMessage } from "@/components/api/apiClient";
import { formatDateTime } from "@/components/format/dateFormat";
import { TextField } from "@/components/forms/TextField";

interface RunningGrant {
  id: string;
  rule: string | null;
  units: number;
  until: string;
  createdBy: string;
}

export function GrantsTable<G extends RunningGrant>({
  grants,
  forOf,
  canEdit,
  onEnd,
  ending,
  emptyTestId,
}: {
  grants: G[];
  /** Who a grant is for, as a first column; absent: no such column (the page names the owner). */
  forOf?: (grant: G) => string;
  canEdit: boolean;
  onEnd: (id: string) => void;
  ending: boolean;
  emptyTestId: string;
}) {
  if (grants.length === 0) return <p data-testid={emptyTestId}>No running grants.</p>;
  return (
    <table>
      <thead>
        <tr>
          {forOf ? <th>For</th> : null}
          <th>Rule</th>
          <th className="num">Units</th>
          <th>Until</th>
          <th>By</th>
          {canEdit ? <th /> : null}
        </tr>
      </thead>
      <tbody>
        {grants.map((g) => (
          <tr key={g.id}>
            {forOf ? <td className="name">{forOf(g)}</td> : null}
            <td>{g.rule ? <code>{g.rule}</code> : "every key rule"}</td>
            <td className="num">{g.units.toLocaleString("en")}</td>
            <td>{formatDateTime(g.until)}</td>
            <td className="name">{g.createdBy}</td>
            {canEdit ? (
              <td>
                <button type="button" onClick={() => onEnd(g.id)} disabled={ending}>
                  End
                </button>
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The units, rule and until fields' text, and the grant input they make (units as typed: NaN when empty). */
export function useGrantFields() {
  const [units, setUnits] = useState("");
  const [rule, setRule] = useState("");
  const [until, setUntil] = useState("");
  return {
    units,
    rule,
    until,
    setUnits,
    setRule,
    setUntil,
    reset() {
      setUnits("");
      setRule("");
      setUntil("");
    },
    input(): { units: number; rule?: string; until?: string } {
      const at = until === "" ? undefined : new Date(until);
      return {
        units: units.trim() === "" ? Number.NaN : Number(units.trim()),
        ...(rule.trim() ? { rule: rule.trim() } : {}),
        ...(at ? { until: Number.isNaN(at.getTime()) ? until : at.toISOString() } : {}),
      };
    },
  };
}

export function GrantFields({
  idPrefix,
  fields,
  errors,
}: {
  /** Keeps the fields' ids apart where two grant forms share a page ("grant", "caller-grant"). */
  idPrefix: string;
  fields: ReturnType<typeof useGrantFields>;
  errors: Record<string, string | undefined>;
}) {
  return (
    <>
      <TextField
        id={`${idPrefix}-units`}
        label="Units"
        inputMode="numeric"
        value={fields.units}
        onChange={(e) => fields.setUnits(e.target.value)}
        error={errors.units}
      />
      <TextField
        id={`${idPrefix}-rule`}
        label="Rule (empty: every key rule)"
        value={fields.rule}
        onChange={(e) => fields.setRule(e.target.value)}
        error={errors.rule}
      />
      <TextField
        id={`${idPrefix}-until`}
        label="Until (your local time; empty: the window's end)"
        type="datetime-local"
        value={fields.until}
        onChange={(e) => fields.setUntil(e.target.value)}
        error={errors.until}
      />
    </>
  );
}

/** Ends a grant under `path` (its list's URL); `endError` is what the server refused, shown above the form. */
export function useEndGrant(path: string, refresh: () => void) {
  const [endError, setEndError] = useState<string | null>(null);
  const end = useMutation({
    mutationFn: (id: string) => apiSend<null>("DELETE", `${path}/${encodeURIComponent(id)}`),
    onSuccess: refresh,
    onError: (error) => setEndError(errorMessage(error)),
  });
  return { end, endError, clearEndError: () => setEndError(null) };
}

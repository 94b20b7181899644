"use client";
/**
 * The tenant's access lists on its page: addresses, CIDR blocks and keys that are denied (403,
 * charged nothing) or allowed (pass every rule uncharged). Admins edit them; viewers only see them.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet, LIVE_INTERVAL_MS, type ApiError } from "@/components/api/apiClient";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import type { AccessLists } from "@/lib/policy/access/accessListSchema";
import { AccessListsForm } from "./AccessListsForm";
import { tenantPath } from "@/components/api/tenantQueries";

function useAccessLists(tenantId: string) {
  return useQuery<AccessLists, ApiError>({
    queryKey: ["tenant", tenantId, "access"],
    queryFn: () => apiGet<AccessLists>(`${tenantPath(tenantId)}/access`),
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
}

function ReadOnlyList({ label, entries }: { label: string; entries: string[] }) {
  return (
    <div>
      <h3>{label}</h3>
      {entries.length === 0 ? (
        <Empty>None.</Empty>
      ) : (
        <ul aria-label={`${label} list`}>
          {entries.map((entry) => (
            <li key={entry}>
              <code>{entry}</code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function AccessListsCard({ tenantId, canEdit }: { tenantId: string; canEdit: boolean }) {
  const lists = useAccessLists(tenantId);
  const [saved, setSaved] = useState(false);
  return (
    <section className="card" aria-labelledby="access-heading">
      <div className="card-header">
        <h2 id="access-heading">Access lists</h2>
      </div>
      <p className="hint">
        One entry per line: an IPv4 or IPv6 address, a CIDR block such as <code>10.0.0.0/8</code>, or{" "}
        <code>key:&lt;keyId&gt;</code>. Matched against the client address that <code>ip</code> rules limit by.
      </p>
      {lists.isPending ? <Loading label="Loading access lists…" /> : null}
      {lists.error ? <ErrorState error={lists.error} /> : null}
      {lists.data ? (
        canEdit ? (
          // Keyed by the stored lists, so another operator's change resets the form.
          <AccessListsForm
            key={JSON.stringify(lists.data)}
            tenantId={tenantId}
            current={lists.data}
            onSaved={setSaved}
          />
        ) : (
          <div className="grid-2">
            <ReadOnlyList label="Allow" entries={lists.data.allow} />
            <ReadOnlyList label="Deny" entries={lists.data.deny} />
          </div>
        )
      ) : null}
      {saved ? (
        <p role="status" className="hint">
          Saved: in force on every instance within a second.
        </p>
      ) : null}
    </section>
  );
}

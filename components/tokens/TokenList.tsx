"use client";
/**
 * The API tokens page (admins only: the API refuses the list to viewers, so they get a note instead
 * of a 403): every token with its role, tenant limit, expiry and last use; create one (its secret
 * shown once) and revoke.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiGet, LIVE_INTERVAL_MS, type ApiError } from "@/components/api/apiClient";
import { useSession } from "@/components/api/useSession";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import type { TokenView } from "@/lib/control/tokens/tokenStore";
import { CreateTokenForm } from "./CreateTokenForm";
import { TokenRow } from "./TokenRow";
import { ScrollRegion } from "@/components/tables/ScrollRegion";

export const TOKENS_QUERY_KEY = ["tokens"] as const;

export default function TokenList() {
  const session = useSession();
  const isAdmin = session.data?.role === "admin";
  const tokens = useQuery<TokenView[], ApiError>({
    queryKey: TOKENS_QUERY_KEY,
    queryFn: () => apiGet<TokenView[]>("/api/admin/tokens"),
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
    enabled: isAdmin,
  });

  return (
    <>
      <div className="page-header">
        <h1>API tokens</h1>
      </div>
      {!isAdmin ? (
        <p className="hint">Only admins see and manage API tokens.</p>
      ) : (
        <div className="stack">
          <CreateTokenForm />
          <section className="card" aria-labelledby="tokens-heading">
            <h2 id="tokens-heading">Tokens for people and automation</h2>
            <p className="hint">
              Send one as <code>Authorization: Bearer sluice_tok_…</code> on the admin API. Changes made with it are
              audited as <code>token:&lt;name&gt;</code>.
            </p>
            {tokens.isPending ? <Loading label="Loading tokens…" /> : null}
            {tokens.isError ? <ErrorState error={tokens.error} /> : null}
            {tokens.data && tokens.data.length === 0 ? <Empty>No API tokens yet.</Empty> : null}
            {tokens.data && tokens.data.length > 0 ? (
              <ScrollRegion label="API tokens">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Role</th>
                      <th scope="col">Tenant</th>
                      <th scope="col">Expires</th>
                      <th scope="col">Last used</th>
                      <th scope="col">Created by</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {tokens.data.map((token) => (
                      <TokenRow key={token.id} token={token} />
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            ) : null}
          </section>
        </div>
      )}
    </>
  );
}

"use client";
/** The operators page: everyone sees the list; admins add operators, change roles, delete. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { apiGet, LIVE_INTERVAL_MS, type ApiError } from "@/components/api/apiClient";
import { useSession } from "@/components/api/useSession";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import type { OperatorView } from "@/lib/control/auth/operatorStore";
import { CreateOperatorForm } from "./CreateOperatorForm";
import { OperatorRow } from "./OperatorRow";
import { ScrollRegion } from "@/components/tables/ScrollRegion";

export default function OperatorList() {
  const session = useSession();
  const isAdmin = session.data?.role === "admin";
  const operators = useQuery<OperatorView[], ApiError>({
    queryKey: ["operators"],
    queryFn: () => apiGet<OperatorView[]>("/api/admin/operators"),
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <div className="page-header">
        <h1>Operators</h1>
        {isAdmin ? <Link href="/tokens">API tokens</Link> : null}
      </div>
      <div className="stack">
        {isAdmin ? (
          <CreateOperatorForm />
        ) : (
          <p className="hint">You are a viewer: you can see the operators but not change them.</p>
        )}
        <section className="card" aria-labelledby="operators-heading">
          <h2 id="operators-heading">Everyone who can log in</h2>
          {operators.isPending ? <Loading label="Loading operators…" /> : null}
          {operators.isError ? <ErrorState error={operators.error} /> : null}
          {operators.data && operators.data.length === 0 ? <Empty>No operators yet.</Empty> : null}
          {operators.data && operators.data.length > 0 ? (
            <ScrollRegion label="Operators">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">Tenants</th>
                    <th scope="col">Added</th>
                    {isAdmin ? (
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    ) : null}
                  </tr>
                </thead>
                <tbody>
                  {operators.data.map((operator) => (
                    <OperatorRow
                      key={operator.id}
                      operator={operator}
                      canChange={isAdmin}
                      isSelf={operator.email === session.data?.email}
                    />
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          ) : null}
        </section>
      </div>
    </>
  );
}

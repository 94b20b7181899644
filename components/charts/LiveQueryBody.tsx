/**
 * The body of a monitoring card around its live query (useMonitoring.ts): the failure when there is
 * no answer yet, loading, then the answer: `empty` when it holds nothing to show, else what
 * `children` draws of it. A failed refresh keeps the last answer on screen with the failure under
 * it. `data` is what the card draws, derived from the query's answer (absent until it comes).
 */
import type { ReactNode } from "react";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";

interface LiveQueryBodyProps<T> {
  query: { isError: boolean; isPending: boolean; error: unknown };
  data: T | null | undefined;
  loadingLabel: string;
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  children: (data: T) => ReactNode;
}

export function LiveQueryBody<T>({ query, data, loadingLabel, isEmpty, empty, children }: LiveQueryBodyProps<T>) {
  return (
    <>
      {query.isError && !data ? <ErrorState error={query.error} /> : null}
      {query.isPending ? <Loading label={loadingLabel} /> : null}
      {data ? isEmpty(data) ? <Empty>{empty}</Empty> : children(data) : null}
      {query.isError && data ? <ErrorState error={query.error} /> : null}
    </>
  );
}

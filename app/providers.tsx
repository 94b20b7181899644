"use client";
/**
 * One QueryClient per browser tab. Client errors (4xx) are not retried: they will not change by
 * asking again. Any query that meets a 401 makes the session be re-read, so an expired session
 * sends the operator to /login from whatever page is open.
 */
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ApiError } from "@/components/api/apiClient";
import { SESSION_QUERY_KEY } from "@/components/api/useSession";

function makeClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
        refetchOnWindowFocus: true,
      },
    },
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (error instanceof ApiError && error.status === 401 && query.queryKey[0] !== SESSION_QUERY_KEY[0]) {
          void client.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
        }
      },
    }),
    mutationCache: new MutationCache({
      onError: (error) => {
        if (error instanceof ApiError && error.status === 401)
          void client.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
      },
    }),
  });
  return client;
}

export default function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(makeClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

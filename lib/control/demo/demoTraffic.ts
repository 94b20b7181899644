/**
 * The demo's traffic: clients that behave differently enough for every chart to move (steady
 * clients well within limits, bursty ones that hit their token bucket, an abusive one that is
 * mostly refused, decision-API calls that exhaust an identifier rule).
 *
 * Contract
 * - `DEMO_BEHAVIOURS` names each client (a key of demoTenants.ts's DEMO_TENANTS) and its schedule.
 * - `startDemoTraffic` sends each client's requests to `baseUrl` with its API key, as if through
 *   one trusted proxy: each client gets its own `X-Forwarded-For` address, so the `ip` rules see
 *   distinct clients (the server must run with SLUICE_TRUST_PROXY=1). Returns a tally of status
 *   codes per client and a `stop()` that clears every timer. Network errors count as status 0.
 */

export interface DemoRequest {
  method: string;
  path: string;
  body?: unknown;
}

export interface DemoBehaviour {
  tenant: string;
  client: string;
  ip: string;
  everyMs: number;
  /** Requests sent at once every `everyMs`. */
  burst: number;
  /** The i-th request of this client (counted from 0). */
  request(i: number): DemoRequest;
}

const echo = (path = "/api/v1/echo/items"): DemoRequest => ({ method: "GET", path });

export const DEMO_BEHAVIOURS: readonly DemoBehaviour[] = [
  { tenant: "Acme (demo)", client: "steady", ip: "10.1.0.1", everyMs: 1_000, burst: 1, request: () => echo() },
  // 25 at once against `burst`'s bucket of 20: 5 refused each time, and 80 a minute admitted, well within `per-key`.
  { tenant: "Acme (demo)", client: "bursty", ip: "10.1.0.2", everyMs: 15_000, burst: 25, request: () => echo() },
  {
    tenant: "Acme (demo)",
    client: "abusive",
    ip: "10.1.0.3",
    everyMs: 200,
    burst: 4,
    request: (i) => (i % 4 === 0 ? { method: "POST", path: "/api/v1/echo/items" } : echo()),
  },
  {
    tenant: "Acme (demo)",
    client: "partner",
    ip: "10.1.0.4",
    everyMs: 2_000,
    burst: 1,
    // The decision API: sign-ups of a few identifiers, one of them far too often.
    request: (i) => ({
      method: "POST",
      path: "/api/v1/check",
      body: { rule: "signups", identifier: i % 2 === 0 ? "signup:203.0.113.7" : `signup:user-${i % 9}` },
    }),
  },
  {
    tenant: "Globex (demo)",
    client: "mobile",
    ip: "10.2.0.1",
    everyMs: 1_000,
    burst: 3,
    request: (i) => echo(i % 3 === 0 ? "/api/v1/echo/profile" : "/api/v1/echo/feed"),
  },
  {
    tenant: "Globex (demo)",
    client: "batch",
    ip: "10.2.0.2",
    everyMs: 10_000,
    burst: 40,
    request: (i) => echo(`/api/v1/echo/export/page-${i % 100}`),
  },
];

export type Tally = Map<string, Map<number, number>>;

export interface DemoTraffic {
  tally: Tally;
  stop(): void;
}

export function startDemoTraffic(options: {
  baseUrl: string;
  /** The API key of a tenant's client (from seedDemo). */
  keyOf: (tenant: string, client: string) => string;
  behaviours?: readonly DemoBehaviour[];
  fetchImpl?: typeof fetch;
}): DemoTraffic {
  const doFetch = options.fetchImpl ?? fetch;
  const tally: Tally = new Map();
  const timers: NodeJS.Timeout[] = [];
  for (const behaviour of options.behaviours ?? DEMO_BEHAVIOURS) {
    const label = `${behaviour.tenant}/${behaviour.client}`;
    const counts = new Map<number, number>();
    tally.set(label, counts);
    const key = options.keyOf(behaviour.tenant, behaviour.client);
    let sent = 0;
    const send = async (request: DemoRequest): Promise<void> => {
      let status = 0;
      try {
        const response = await doFetch(options.baseUrl + request.path, {
          method: request.method,
          headers: {
            authorization: `Bearer ${key}`,
            "x-forwarded-for": behaviour.ip,
            ...(request.body === undefined ? {} : { "content-type": "application/json" }),
          },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
        });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = 0;
      }
      counts.set(status, (counts.get(status) ?? 0) + 1);
    };
    const tick = () => {
      for (let i = 0; i < behaviour.burst; i++) void send(behaviour.request(sent++));
    };
    timers.push(setInterval(tick, behaviour.everyMs));
  }
  return {
    tally,
    stop: () => {
      for (const timer of timers) clearInterval(timer);
    },
  };
}

/** One line per client: `Acme (demo)/steady: 200×12 429×3`. */
export function formatTally(tally: Tally): string {
  return [...tally]
    .map(([client, counts]) => `${client}: ${[...counts].map(([status, n]) => `${status}×${n}`).join(" ") || "-"}`)
    .join("\n");
}

/**
 * The link between the two planes of one `npm start` process: the data plane on the main thread,
 * the control plane (Next) in a worker thread (lib/config/plane.ts says why). They share no memory,
 * so what one instance promises across the planes goes over the worker's message port:
 * - `tenantChanged(id)`: the admin API applies a change of a tenant's keys or rules to the data
 *   plane's access cache before it answers (services.ts `announce`): "in force on this instance"
 *   keeps meaning the instance that serves /api/v1; rejects when that reload failed.
 * - `tenantReset(id)`: after a counter reset, the data plane forgets the tenant's cached refusals.
 * - `metrics()`: the data plane's Prometheus metrics (prom-client JSON), which GET /api/metrics
 *   adds to the control plane's (`instanceMetrics`), so one scrape sees the whole instance.
 * Every request is answered or rejected within LINK_TIMEOUT_MS; a handler's error is the
 * rejection's message.
 *
 * `serveDataPlaneLink(worker, handlers)` runs on the main thread (scripts/server.mjs);
 * `dataPlaneLink()` is the control plane's side: undefined where one thread serves both planes.
 */
import { parentPort } from "node:worker_threads";
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from "prom-client";
import { isControlPlaneWorker } from "../config/plane";

export const LINK_TIMEOUT_MS = 5_000;

export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

export interface DataPlaneLink {
  tenantChanged(tenantId: string): Promise<void>;
  tenantReset(tenantId: string): Promise<void>;
  metrics(): Promise<MetricsJson>;
}

type Kind = keyof DataPlaneLink;

interface LinkRequest {
  sluiceLink: "request";
  id: number;
  kind: Kind;
  tenantId?: string;
}

interface LinkReply {
  sluiceLink: "reply";
  id: number;
  value?: unknown;
  error?: string;
}

/** One end of a message channel: a Worker (main thread), its parentPort (worker), a MessagePort. */
export interface MessageEnd {
  on(event: "message", listener: (message: unknown) => void): unknown;
  postMessage(message: unknown): void;
}

const KINDS: readonly Kind[] = ["tenantChanged", "tenantReset", "metrics"];

function isRequest(message: unknown): message is LinkRequest {
  const m = message as Partial<LinkRequest> | null;
  return m?.sluiceLink === "request" && typeof m.id === "number" && KINDS.includes(m.kind as Kind);
}

/** Main thread: answers the control plane's requests with `handlers`. */
export function serveDataPlaneLink(worker: MessageEnd, handlers: DataPlaneLink): void {
  worker.on("message", (message: unknown) => {
    if (!isRequest(message)) return;
    const { id, kind, tenantId = "" } = message;
    const answer = (reply: Omit<LinkReply, "sluiceLink" | "id">) =>
      worker.postMessage({ sluiceLink: "reply", id, ...reply });
    const handle = (): Promise<unknown> => (kind === "metrics" ? handlers.metrics() : handlers[kind](tenantId));
    Promise.resolve()
      .then(handle)
      .then(
        (value) => answer({ value }),
        (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
      );
  });
}

/** A link over `port`: requests numbered, each settled by its reply or after `timeoutMs`. */
export function linkOver(port: MessageEnd, timeoutMs = LINK_TIMEOUT_MS): DataPlaneLink {
  let next = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  port.on("message", (message: unknown) => {
    const reply = message as Partial<LinkReply> | null;
    if (reply?.sluiceLink !== "reply" || typeof reply.id !== "number") return;
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.error !== undefined) waiting.reject(new Error(`data plane: ${reply.error}`));
    else waiting.resolve(reply.value);
  });
  const ask = (kind: Kind, tenantId?: string): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`data plane: no answer to ${kind} within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      const settle =
        <T>(done: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          done(value);
        };
      pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      port.postMessage({ sluiceLink: "request", id, kind, ...(tenantId === undefined ? {} : { tenantId }) });
    });
  return {
    tenantChanged: async (tenantId) => void (await ask("tenantChanged", tenantId)),
    tenantReset: async (tenantId) => void (await ask("tenantReset", tenantId)),
    metrics: async () => (await ask("metrics")) as MetricsJson,
  };
}

const globalForLink = globalThis as unknown as { sluiceDataPlaneLink?: DataPlaneLink };

/** The control plane worker's link to the data plane; undefined in a thread that serves both planes. */
export function dataPlaneLink(): DataPlaneLink | undefined {
  if (!isControlPlaneWorker() || !parentPort) return undefined;
  globalForLink.sluiceDataPlaneLink ??= linkOver(parentPort);
  return globalForLink.sluiceDataPlaneLink;
}

/**
 * This thread's metrics, with the data plane's when it runs in another thread (`link`: this
 * thread's link to it, none where one thread serves both): the instance's whole text.
 */
export async function instanceMetrics(
  registry: Registry,
  link = dataPlaneLink(),
): Promise<{ text: string; contentType: string }> {
  if (!link) return { text: await registry.metrics(), contentType: registry.contentType };
  const merged = AggregatorRegistry.aggregate([await link.metrics(), await registry.getMetricsAsJSON()]);
  return { text: await merged.metrics(), contentType: registry.contentType };
}

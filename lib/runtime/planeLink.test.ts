import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { Counter, Gauge, Registry } from "prom-client";
import { instanceMetrics, linkOver, serveDataPlaneLink, type DataPlaneLink, type MetricsJson } from "./planeLink";

const ports: MessagePort[] = [];

/** The two ends of a worker's message port: the main thread's (served) and the worker's (asking). */
function channel(handlers: DataPlaneLink, timeoutMs?: number): DataPlaneLink {
  const { port1: main, port2: worker } = new MessageChannel();
  ports.push(main, worker);
  serveDataPlaneLink(main, handlers);
  return linkOver(worker, timeoutMs);
}

afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

const noMetrics = async (): Promise<MetricsJson> => [];

describe("the plane link", () => {
  it("runs each request on the main thread's side and resolves with its answer", async () => {
    const changed: string[] = [];
    const reset: string[] = [];
    const link = channel({
      tenantChanged: async (id) => void changed.push(id),
      tenantReset: async (id) => void reset.push(id),
      metrics: noMetrics,
    });
    await link.tenantChanged("tnA");
    await Promise.all([link.tenantReset("tnB"), link.tenantChanged("tnC")]);
    expect(changed).toEqual(["tnA", "tnC"]);
    expect(reset).toEqual(["tnB"]);
  });

  it("rejects with the main thread's error, so an announce says the change is not in force", async () => {
    const link = channel({
      tenantChanged: async () => {
        throw new Error("rule store unreachable");
      },
      tenantReset: async () => undefined,
      metrics: noMetrics,
    });
    await expect(link.tenantChanged("tnA")).rejects.toThrow("data plane: rule store unreachable");
  });

  it("rejects a request the main thread never answers once the timeout has passed", async () => {
    const link = channel(
      { tenantChanged: () => new Promise(() => undefined), tenantReset: async () => undefined, metrics: noMetrics },
      50,
    );
    await expect(link.tenantChanged("tnA")).rejects.toThrow("no answer to tenantChanged within 50 ms");
  });

  it("carries the data plane's metrics, which add up with the control plane's", async () => {
    const main = new Registry();
    const worker = new Registry();
    new Counter({ name: "hits_total", help: "h", registers: [main] }).inc(3);
    new Counter({ name: "hits_total", help: "h", registers: [worker] }).inc(2);
    new Gauge({ name: "only_main", help: "m", registers: [main] }).set(7);
    const link = channel({
      tenantChanged: async () => undefined,
      tenantReset: async () => undefined,
      metrics: () => main.getMetricsAsJSON(),
    });
    const { text } = await instanceMetrics(worker, link);
    expect(text).toMatch(/^hits_total 5$/m);
    expect(text).toMatch(/^only_main 7$/m);
  });

  it("ignores messages that are not its own on either side", async () => {
    const { port1: main, port2: worker } = new MessageChannel();
    ports.push(main, worker);
    const seen: string[] = [];
    serveDataPlaneLink(main, {
      tenantChanged: async (id) => void seen.push(id),
      tenantReset: async () => undefined,
      metrics: noMetrics,
    });
    const link = linkOver(worker);
    worker.postMessage({ sluicePlane: "ready" });
    worker.postMessage({ sluiceLink: "request", id: 1, kind: "dropEverything" });
    main.postMessage({ sluiceLink: "reply", id: 999, value: 1 });
    await link.tenantChanged("tnA");
    expect(seen).toEqual(["tnA"]);
  });
});

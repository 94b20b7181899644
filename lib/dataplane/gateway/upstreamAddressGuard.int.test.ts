/**
 * The gateway never connects to a link-local upstream address (CONTRACT.md, admin API, upstream
 * row: "502 when a name resolves to one"), judged on the address the socket connects to. Names are
 * resolved through a stubbed node:dns (`*.sluice.test`), so the test needs no DNS server; every
 * other name resolves as usual.
 */
import type { LookupAddress } from "node:dns";
import { describe, expect, it, vi } from "vitest";
import { json, send, gatewayBench } from "@/test/support/gatewayBench";

const NAMES: Record<string, LookupAddress[]> = {
  "metadata.sluice.test": [{ address: "169.254.169.254", family: 4 }],
  "mapped.sluice.test": [{ address: "::ffff:169.254.169.254", family: 6 }],
  "v6.sluice.test": [{ address: "fe80::1", family: 6 }],
  "mixed.sluice.test": [
    { address: "169.254.169.254", family: 4 },
    { address: "127.0.0.1", family: 4 },
  ],
};

vi.mock("node:dns", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns")>();
  const lookup = ((host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    const known = NAMES[host];
    if (!known) return real.lookup(host, options as never, callback as never);
    if (options.all) callback(null, known);
    else callback(null, known[0]!.address, known[0]!.family);
  }) as typeof real.lookup;
  return { ...real, lookup, default: { ...real, lookup } };
});

const { front, upstream } = gatewayBench();

const REFUSED = {
  type: "about:blank",
  title: "Bad Gateway",
  status: 502,
  detail:
    "The upstream's address must not be link-local (169.254.0.0/16, fe80::/10), where cloud metadata services answer.",
};

describe("link-local upstream addresses", () => {
  it.each(["metadata.sluice.test", "mapped.sluice.test", "v6.sluice.test"])(
    "a name that resolves only to link-local addresses (%s): 502 saying so, nothing connected",
    async (name) => {
      const up = await upstream();
      const res = await send(await front(`http://${name}:${up.port}`, 2_000), { path: "/api/v1/latest/meta-data" });
      expect(res.status).toBe(502);
      expect(json(res)).toEqual(REFUSED);
    },
  );

  it.each([
    "http://169.254.169.254",
    "http://[fe80::1]:8080",
    "http://[::ffff:169.254.169.254]",
    "http://[::a9fe:a9fe]",
  ])("a link-local IP literal stored before the schema refused it (%s): 502 at once, never connected", async (url) => {
    const res = await send(await front(url, 2_000), { method: "POST", path: "/api/v1/x", body: "payload" });
    expect(res.status).toBe(502);
    expect(json(res)).toEqual(REFUSED);
  });

  it("a name with link-local and other addresses is connected to the others only", async () => {
    const up = await upstream();
    const res = await send(await front(`http://mixed.sluice.test:${up.port}`), { path: "/api/v1/orders/42" });
    expect(res.status).toBe(200);
    expect(up.seen.map((s) => s.url)).toEqual(["/orders/42"]);
  });

  it("names that resolve elsewhere, loopback included, are forwarded as before", async () => {
    const up = await upstream();
    const res = await send(await front(`http://localhost:${up.port}`), { path: "/api/v1/x" });
    expect(res.status).toBe(200);
  });
});

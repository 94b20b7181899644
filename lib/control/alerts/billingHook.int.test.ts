/**
 * The billing hook (issue 33, point 5) against a local receiver: at a period's end one signed
 * webhook per tenant with each key's usage of the closed period, an idempotency key that stays the
 * same across retries, exactly one claim with two instances at once, a receiver that failed every
 * attempt gets it again once the lease has passed, and a loopback receiver is refused by the
 * address guard unless allowed (the alerts' transport).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowedRanges } from "@/lib/config/addressRanges";
import { getDb } from "@/lib/db/client";
import { BillingHook, lastClosedPeriod, LEASE_MS, type BillingHookDeps, type BillingPayload } from "./billingHook";
import { DEFAULT_DELIVERY_POLICY, deliverWebhook } from "./webhookDelivery";
import { webhookTransport } from "./webhookTransport";
import { verifyWebhookSignature } from "./webhookSignature";

interface Seen {
  headers: http.IncomingHttpHeaders;
  body: string;
}

let receiver: http.Server;
let url = "";
const seen: Seen[] = [];
/** Statuses the receiver answers, in turn (then 200). */
const answers: number[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push({ headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/billing`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

const SECRET = "whsec_billingtest";
const NOW = Date.parse("2026-11-01T00:10:00Z");
const send = webhookTransport(parseAllowedRanges("127.0.0.1/32"));
const deliver: BillingHookDeps["deliver"] = (target) =>
  deliverWebhook(target, {
    send,
    policy: { ...DEFAULT_DELIVERY_POLICY, attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    clock: () => NOW,
    sleep: async () => undefined,
    random: () => 0,
  });

async function tenantWithUsage() {
  const tenantId = `b${Math.random().toString(36).slice(2, 9)}`;
  const db = getDb();
  // October's usage of two keys, and one hour of November (not billed with October).
  await db.usageHour.createMany({
    data: [
      {
        tenantId,
        hour: new Date("2026-10-01T00:00:00Z"),
        caller: "KeyAaaa1",
        rule: "*",
        tier: "",
        admitted: 10n,
        refused: 2n,
        units: 10n,
      },
      {
        tenantId,
        hour: new Date("2026-10-31T23:00:00Z"),
        caller: "KeyAaaa1",
        rule: "*",
        tier: "",
        admitted: 5n,
        refused: 0n,
        units: 7n,
      },
      {
        tenantId,
        hour: new Date("2026-10-15T12:00:00Z"),
        caller: "KeyBbbb2",
        rule: "*",
        tier: "pro",
        admitted: 3n,
        refused: 1n,
        units: 3n,
      },
      {
        tenantId,
        hour: new Date("2026-10-15T12:00:00Z"),
        caller: "@10.0.0.1",
        rule: "*",
        tier: "",
        admitted: 4n,
        refused: 0n,
        units: 4n,
      },
      {
        tenantId,
        hour: new Date("2026-11-01T00:00:00Z"),
        caller: "KeyAaaa1",
        rule: "*",
        tier: "",
        admitted: 99n,
        refused: 0n,
        units: 99n,
      },
    ],
  });
  return {
    tenantId,
    settings: {
      tenantId,
      tenantName: "Billing test",
      webhookUrl: url,
      secret: SECRET,
      refusalRate: null,
      clientLimit: null,
      billing: { period: "month" as const },
    },
  };
}

const hook = (settings: Awaited<ReturnType<typeof tenantWithUsage>>["settings"], clock = () => NOW) =>
  new BillingHook({ db: getDb, loadSettings: async () => [settings], deliver, clock, log: () => undefined });

describe("the billing hook", () => {
  it("sends one signed webhook per tenant and closed period with each key's usage, once with two instances", async () => {
    const { tenantId, settings } = await tenantWithUsage();
    expect(lastClosedPeriod("month", NOW)).toEqual({
      startMs: Date.parse("2026-10-01T00:00:00Z"),
      endMs: Date.parse("2026-11-01T00:00:00Z"),
    });
    seen.length = 0;
    const [one, two] = await Promise.all([hook(settings).runOnce(), hook(settings).runOnce()]);
    expect(one.length + two.length).toBe(1);
    expect(seen).toHaveLength(1);
    const payload = JSON.parse(seen[0]!.body) as BillingPayload;
    expect(payload).toEqual({
      id: `bill_${tenantId}_month_2026-10-01`,
      type: "usage.period_closed",
      tenantId,
      tenantName: "Billing test",
      period: { unit: "month", start: "2026-10-01T00:00:00.000Z", end: "2026-11-01T00:00:00.000Z" },
      keys: [
        { key: "KeyAaaa1", name: null, admitted: 15, refused: 2, units: 17 },
        { key: "KeyBbbb2", name: null, admitted: 3, refused: 1, units: 3 },
      ],
      total: { admitted: 22, refused: 3, units: 24 },
    });
    expect(seen[0]!.headers["idempotency-key"]).toBe(payload.id);
    expect(seen[0]!.headers["sluice-alert-id"]).toBe(payload.id);
    expect(verifyWebhookSignature(SECRET, seen[0]!.body, String(seen[0]!.headers["sluice-signature"]), NOW)).toBe(true);
    // Delivered: a later run sends nothing for that period.
    expect(await hook(settings, () => NOW + 2 * LEASE_MS).runOnce()).toEqual([]);
  });

  it("closes periods at local midnight in the settings' time zone (a Berlin October ends at 23:00 UTC)", async () => {
    const { tenantId, settings } = await tenantWithUsage();
    const berlin = { ...settings, billing: { period: "month" as const, timeZone: "Europe/Berlin" } };
    seen.length = 0;
    expect((await hook(berlin).runOnce()).map((r) => r.outcome.outcome)).toEqual(["delivered"]);
    const payload = JSON.parse(seen[0]!.body) as BillingPayload;
    expect(payload.id).toBe(`bill_${tenantId}_month_2026-10-01`);
    expect(payload.period).toEqual({
      unit: "month",
      timeZone: "Europe/Berlin",
      start: "2026-09-30T22:00:00.000Z",
      end: "2026-10-31T23:00:00.000Z",
    });
    // The hour from 23:00 UTC on October 31st is Berlin's November: not billed with October.
    expect(payload.keys).toEqual([
      { key: "KeyAaaa1", name: null, admitted: 10, refused: 2, units: 10 },
      { key: "KeyBbbb2", name: null, admitted: 3, refused: 1, units: 3 },
    ]);
    expect(payload.total).toEqual({ admitted: 17, refused: 3, units: 17 });
  });

  it("retries with the same idempotency key, and sends a period that failed every attempt again after the lease", async () => {
    const { tenantId, settings } = await tenantWithUsage();
    seen.length = 0;
    answers.push(503, 500); // both attempts of the first run fail
    const first = await hook(settings).runOnce();
    expect(first[0]!.outcome.outcome).toBe("failed");
    expect(seen).toHaveLength(2);
    // Within the lease nobody sends it again; after it, the next run does, with the same key.
    expect(await hook(settings, () => NOW + 60_000).runOnce()).toEqual([]);
    const again = await hook(settings, () => NOW + LEASE_MS + 60_000).runOnce();
    expect(again[0]!.outcome.outcome).toBe("delivered");
    expect(new Set(seen.map((s) => s.headers["idempotency-key"]))).toEqual(
      new Set([`bill_${tenantId}_month_2026-10-01`]),
    );
    const row = await getDb().billingDelivery.findFirst({ where: { tenantId } });
    expect(row).toMatchObject({ status: "delivered", attempts: 3 });
  });

  it("goes through the alerts' address guard: a loopback receiver is refused when not allowed", async () => {
    const { settings } = await tenantWithUsage();
    const guarded = webhookTransport([]);
    seen.length = 0;
    const refused = await new BillingHook({
      db: getDb,
      loadSettings: async () => [settings],
      deliver: (target) =>
        deliverWebhook(target, {
          send: guarded,
          policy: DEFAULT_DELIVERY_POLICY,
          clock: () => NOW,
          sleep: async () => undefined,
          random: () => 0,
        }),
      clock: () => NOW,
      log: () => undefined,
    }).runOnce();
    expect(refused[0]!.outcome).toMatchObject({ outcome: "failed", attempts: 1 });
    expect(seen).toEqual([]);
  });
});

/**
 * The decision recorder against the shared local Redis, under this file's own prefix: a key's
 * recent decisions (bounded, newest first, merged across instances, 24 h TTL), several recorders
 * adding up, an outage that drops a batch without throwing (a client on a closed port), queries
 * answering 503 then, and `stop()` writing what is pending.
 */
import { afterAll, describe, expect, it } from "vitest";
import { decisionOf, ruleResult } from "@/test/support/decisions";
import { freePort } from "@/test/support/freePort";
import {
  counts,
  MIN,
  monitoringTestBed,
  NOW,
  per,
  perRefused,
  req,
  SEC,
  trialRefuses,
} from "@/test/support/monitoringTestBed";
import { AppError } from "../../http/errors";
import { monitoringKeys, RECENT_DECISIONS_KEPT, RETENTION_MS } from "./monitoringKeys";
import { monitoringQueries } from "../query/monitoringQueries";

const bed = monitoringTestBed("monrec");
const { queries, plain, recorder, newTenant, keyTenants, client, directory } = bed;
const PREFIX = bed.prefix;

afterAll(() => bed.close());

describe("recent decisions of a key", () => {
  it(`keeps the last ${RECENT_DECISIONS_KEPT}, newest first, with method, path and verdict; expires in 24 h`, async () => {
    const T = newTenant();
    keyTenants.set("KeyRcnt1", T);
    const r = recorder();
    for (let i = 0; i < 40; i++) r.recordRequest(req(T, "KeyRcnt1", decisionOf([per]), `/api/v1/echo/${i}`), NOW + i);
    expect(await r.flush()).toBe("written");
    for (let i = 40; i < 60; i++)
      r.recordRequest(req(T, "KeyRcnt1", decisionOf([perRefused, trialRefuses]), `/api/v1/echo/${i}`), NOW + i);
    expect(await r.flush()).toBe("written");

    const key = monitoringKeys(PREFIX, T).recent("KeyRcnt1");
    expect(await plain.llen(key)).toBe(RECENT_DECISIONS_KEPT);
    expect(await plain.pttl(key)).toBeGreaterThan(RETENTION_MS - 5 * MIN);

    const { decisions } = await queries.recentDecisions({ keyId: "KeyRcnt1" });
    expect(decisions).toHaveLength(RECENT_DECISIONS_KEPT);
    expect(decisions[0]).toEqual({
      atMs: NOW + 59,
      method: "GET",
      path: "/api/v1/echo/59",
      allowed: false,
      unavailable: false,
      shadowRefused: ["trial"],
      refusedBy: "per-key",
      remaining: 0,
    });
    expect(decisions.at(-1)).toMatchObject({
      atMs: NOW + 10,
      path: "/api/v1/echo/10",
      allowed: true,
      shadowRefused: [],
      refusedBy: null,
      remaining: 5,
    });
    expect(decisions.map((d) => d.atMs)).toEqual([...decisions.map((d) => d.atMs)].sort((x, y) => y - x));

    const five = await queries.recentDecisions({ keyId: "KeyRcnt1", limit: 5 });
    expect(five.decisions.map((d) => d.atMs)).toEqual([59, 58, 57, 56, 55].map((i) => NOW + i));
  });

  it("merges the lists of several instances by time; a key without decisions has none; an unknown key is a 404", async () => {
    const T = newTenant();
    keyTenants.set("KeyRcnt2", T);
    keyTenants.set("KeyQuiet", T);
    const one = recorder();
    const two = recorder();
    one.recordRequest(req(T, "KeyRcnt2", null, "/one/a"), NOW + 1);
    one.recordRequest(req(T, "KeyRcnt2", null, "/one/b"), NOW + 3);
    two.recordRequest(req(T, "KeyRcnt2", null, "/two/a"), NOW + 2);
    await one.flush();
    await two.flush();
    expect((await queries.recentDecisions({ keyId: "KeyRcnt2" })).decisions.map((d) => d.path)).toEqual([
      "/one/b",
      "/two/a",
      "/one/a",
    ]);
    expect(await queries.recentDecisions({ keyId: "KeyQuiet" })).toEqual({ decisions: [] });
    await expect(queries.recentDecisions({ keyId: "KeyNone0" })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("several recorders", () => {
  it("add up: counts, hot keys and refusals sum; near-limit keeps the lowest", async () => {
    const T = newTenant();
    const recorders = [recorder(), recorder(), recorder()];
    recorders.forEach((r, i) => {
      r.recordRequest(
        req(T, "KeyMulti", decisionOf([ruleResult({ name: "per-key", ref: "1", limit: 10 }, { remaining: 8 - i })])),
        SEC,
      );
      r.recordRequest(req(T, "KeyMulti", decisionOf([perRefused])), SEC + 10);
    });
    expect(await Promise.all(recorders.map((r) => r.flush()))).toEqual(["written", "written", "written"]);
    const series = await queries.trafficSeries({ fromMs: SEC, toMs: SEC + 1_000, stepMs: 1_000, tenantId: T });
    expect(series.points.map(counts)).toEqual([[3, 3, 0]]);
    const hot = await queries.hotKeys({ fromMs: NOW - MIN, toMs: NOW + MIN, tenantId: T });
    expect(hot.keys).toMatchObject([
      { keyId: "KeyMulti", requests: 6, refused: 3, topRule: { name: "per-key", refused: 3 } },
    ]);
    const near = await queries.nearLimit({ fromMs: NOW - MIN, toMs: NOW + MIN, tenantId: T });
    expect(near.clients.map((c) => c.fraction)).toEqual([0]);
  });
});

describe("Redis outage", () => {
  it("a flush to an unreachable Redis drops its batch without throwing, logged once per outage", async () => {
    const port = await freePort();
    const down = client(`redis://127.0.0.1:${port}`);
    const logged: string[] = [];
    const r = recorder(down, (message) => logged.push(message));
    const T = newTenant();
    r.recordRequest(req(T, "KeyDown1", decisionOf([per])), NOW);
    expect(r.pendingSize()).toBeGreaterThan(0);
    await expect(r.flush()).resolves.toBe("failed");
    expect(r.pendingSize()).toBe(0);
    r.recordRequest(req(T, "KeyDown1", decisionOf([per])), NOW);
    await expect(r.flush()).resolves.toBe("failed");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("dropping it");
    expect(await r.flush()).toBe("empty");
    await r.stop();
  });

  it("queries answer 503 (limiter_unavailable) when Redis cannot answer", async () => {
    const port = await freePort();
    const down = monitoringQueries({
      redis: client(`redis://127.0.0.1:${port}`),
      prefix: PREFIX,
      timeoutMs: 500,
      directory,
    });
    keyTenants.set("KeyDown2", "TnDown00");
    const range = { fromMs: NOW - MIN, toMs: NOW };
    for (const call of [
      () => down.trafficSeries({ ...range, stepMs: 5_000 }),
      () => down.refusalRate({ ...range, stepMs: 5_000 }),
      () => down.hotKeys(range),
      () => down.nearLimit(range),
      () => down.recentDecisions({ keyId: "KeyDown2" }),
    ]) {
      const error = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(503);
      expect((error as AppError).code).toBe("limiter_unavailable");
    }
  });

  it("stop() writes what is still pending", async () => {
    const T = newTenant();
    keyTenants.set("KeyStop1", T);
    const r = recorder();
    r.recordRequest(req(T, "KeyStop1", null, "/last"), NOW);
    await r.stop();
    expect((await queries.recentDecisions({ keyId: "KeyStop1" })).decisions.map((d) => d.path)).toEqual(["/last"]);
  });
});

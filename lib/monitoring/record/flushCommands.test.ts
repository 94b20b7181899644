import { describe, expect, it } from "vitest";
import { decisionOf, ruleResult } from "@/test/support/decisions";
import { DecisionBatch, type RecordedRequest } from "./decisionBatch";
import { flushCommands } from "./flushCommands";
import {
  GLOBAL_SCOPE,
  HOT_KEYS_KEPT,
  LOWS_KEPT,
  monitoringKeys,
  RECENT_DECISIONS_KEPT,
  REFUSALS_KEPT,
  RETENTION_MS,
} from "./monitoringKeys";
import type { WriteCommand } from "./scopeWrites";

const P = "pfx:";
const T = "Tenant01";
const K = "KeyId001";
const NOW = Date.UTC(2026, 0, 1, 10, 20, 30, 400);
const SECOND = Math.floor(NOW / 1000);
const MINUTE = Math.floor(NOW / 60_000);
const HOUR = Math.floor(NOW / 3_600_000);
const tk = monitoringKeys(P, T);
const gk = monitoringKeys(P, GLOBAL_SCOPE);

const req = (over: Partial<RecordedRequest>): RecordedRequest => ({
  tenantId: T,
  keyId: K,
  decision: null,
  method: "GET",
  path: "/api/v1/echo",
  ...over,
});

function commandsOf(batch: DecisionBatch): Map<string, WriteCommand[]> {
  return flushCommands(batch, P) as Map<string, WriteCommand[]>;
}

const find = (commands: WriteCommand[] | undefined, name: string, key: string) =>
  (commands ?? []).filter(([c, k]) => c === name && k === key);

describe("flushCommands", () => {
  const batch = new DecisionBatch();
  const shadow = { name: "trial", ref: "3", mode: "shadow" as const };
  batch.addRequest(
    req({
      decision: decisionOf([
        ruleResult({ name: "per-key", ref: "1" }, { allowed: false }),
        ruleResult(shadow, { allowed: false }),
      ]),
    }),
    NOW,
  );
  batch.addRequest(
    req({ decision: decisionOf([ruleResult({ name: "per-key", ref: "1" }), ruleResult(shadow, { allowed: false })]) }),
    NOW,
  );
  batch.addRequest(
    req({
      tenantId: "-anon",
      keyId: undefined,
      decision: decisionOf([ruleResult({ name: "anonymous", ref: "anon" }, { allowed: false })]),
    }),
    NOW,
  );
  const groups = commandsOf(batch);
  const tenant = groups.get(T)!;
  const global = groups.get(GLOBAL_SCOPE)!;

  it("groups writes by scope, each group within one hash tag (one Cluster slot)", () => {
    expect([...groups.keys()].sort()).toEqual(["-", "-anon", T].sort());
    for (const [scope, commands] of groups) {
      for (const [, key] of commands) expect(key.startsWith(`${P}{${scope}}m`)).toBe(true);
    }
  });

  it("writes per-second and per-minute cells of the tenant, of each rule, and of all tenants together", () => {
    const second = SECOND % 60;
    const minute = MINUTE % 60;
    expect(find(tenant, "HINCRBY", tk.seconds("*", MINUTE))).toEqual(
      expect.arrayContaining([
        ["HINCRBY", tk.seconds("*", MINUTE), `${second}a`, 1],
        ["HINCRBY", tk.seconds("*", MINUTE), `${second}r`, 1],
        ["HINCRBY", tk.seconds("*", MINUTE), `${second}s`, 1],
      ]),
    );
    expect(find(tenant, "HINCRBY", tk.minutes("3", HOUR))).toEqual([
      ["HINCRBY", tk.minutes("3", HOUR), `${minute}s`, 2],
    ]);
    expect(find(global, "HINCRBY", gk.seconds("*", MINUTE))).toHaveLength(3);
    // The unauthenticated requests are a line of their own, never part of the global series...
    expect(find(global, "HINCRBY", gk.seconds("*", MINUTE)).find(([, , f]) => f === `${second}r`)).toEqual([
      "HINCRBY",
      gk.seconds("*", MINUTE),
      `${second}r`,
      1,
    ]);
    // ...but they are ranked among the tenants.
    expect(find(global, "ZINCRBY", gk.tenants(HOUR)).map(([, , by, member]) => [member, by])).toEqual(
      expect.arrayContaining([
        [T, 1],
        ["-anon", 1],
      ]),
    );
  });

  it("ranks a tenant's rules by refusals plus would-be refusals, so shadow rules rank", () => {
    expect(find(tenant, "ZINCRBY", tk.rules(HOUR)).map(([, , by, member]) => [member, by])).toEqual(
      expect.arrayContaining([
        ["1", 1],
        ["3", 2],
      ]),
    );
  });

  it("trims hot keys, refusals and near-limit sets to their bounds, and the recent list to 50", () => {
    expect(find(tenant, "ZREMRANGEBYRANK", tk.hotKeys("minute", MINUTE))).toEqual([
      ["ZREMRANGEBYRANK", tk.hotKeys("minute", MINUTE), 0, -(HOT_KEYS_KEPT + 1)],
    ]);
    expect(find(global, "ZREMRANGEBYRANK", gk.refusals("hour", HOUR))).toEqual([
      ["ZREMRANGEBYRANK", gk.refusals("hour", HOUR), 0, -(REFUSALS_KEPT + 1)],
    ]);
    expect(find(tenant, "ZREMRANGEBYRANK", tk.lows("minute", MINUTE))).toEqual([
      ["ZREMRANGEBYRANK", tk.lows("minute", MINUTE), LOWS_KEPT, -1],
    ]);
    expect(find(tenant, "LTRIM", tk.recent(K))).toEqual([["LTRIM", tk.recent(K), 0, RECENT_DECISIONS_KEPT - 1]]);
  });

  it("names clients by key id in a tenant's sets and by tenant:key in the global ones", () => {
    expect(find(tenant, "ZINCRBY", tk.hotKeys("minute", MINUTE))).toEqual([
      ["ZINCRBY", tk.hotKeys("minute", MINUTE), 2, K],
    ]);
    expect(find(global, "ZINCRBY", gk.hotKeys("hour", HOUR))).toEqual([
      ["ZINCRBY", gk.hotKeys("hour", HOUR), 2, `${T}:${K}`],
    ]);
    expect(find(tenant, "ZINCRBY", tk.refusals("minute", MINUTE)).map(([, , by, m]) => [m, by])).toEqual([
      [K, 1],
      [`${K}/1`, 1],
    ]);
    expect(find(tenant, "ZADD", tk.lows("minute", MINUTE))).toEqual([
      ["ZADD", tk.lows("minute", MINUTE), "LT", 0, `${K}/1/10`],
    ]);
  });

  it("pushes recent decisions oldest first, so the newest ends at the head of the list", () => {
    const [push] = find(tenant, "LPUSH", tk.recent(K));
    const entries = push!.slice(2).map((v) => JSON.parse(String(v)) as { allowed: boolean });
    expect(entries.map((e) => e.allowed)).toEqual([false, true]);
  });

  it("gives every key it writes a TTL of RETENTION_MS, after that key's last write", () => {
    for (const commands of groups.values()) {
      const written = new Set(commands.filter(([c]) => c !== "PEXPIRE").map(([, key]) => key));
      for (const key of written) {
        const lastWrite = commands.findLastIndex(([c, k]) => c !== "PEXPIRE" && k === key);
        const expire = commands.findIndex(([c, k]) => c === "PEXPIRE" && k === key);
        expect(expire, key).toBeGreaterThan(lastWrite);
        expect(commands[expire]).toEqual(["PEXPIRE", key, RETENTION_MS]);
      }
    }
  });

  it("sends only the top members of a flush: at most HOT_KEYS_KEPT keys per set", () => {
    const big = new DecisionBatch();
    for (let i = 0; i < HOT_KEYS_KEPT + 20; i++) {
      const keyId = `Key${String(i).padStart(5, "0")}`;
      for (let n = 0; n <= i % 3; n++) big.addRequest(req({ keyId }), NOW);
    }
    const sent = find(commandsOf(big).get(T), "ZINCRBY", tk.hotKeys("minute", MINUTE));
    expect(sent).toHaveLength(HOT_KEYS_KEPT);
    // Every key with 3 requests is among them, before any with 1.
    expect(sent.filter(([, , by]) => by === 3)).toHaveLength(40);
  });

  it("an empty batch writes nothing", () => {
    expect(commandsOf(new DecisionBatch()).size).toBe(0);
  });
});

describe("flushCommands: limited subjects", () => {
  it("go to the tenant's and the global minute sets: latest refusal by ZADD GT, refusals by ZINCRBY, both trimmed", () => {
    const batch = new DecisionBatch();
    const refused = decisionOf([ruleResult({ name: "per-key", ref: "1" }, { allowed: false })]);
    batch.addRequest(req({ decision: refused }), NOW);
    batch.addRequest(req({ decision: refused }), NOW + 200);
    const groups = commandsOf(batch);
    const member = JSON.stringify([T, "1", "key", K]);
    for (const [scope, keys] of [
      [T, tk],
      [GLOBAL_SCOPE, gk],
    ] as const) {
      const commands = groups.get(scope);
      expect(find(commands, "ZADD", keys.limited(MINUTE))).toEqual([
        ["ZADD", keys.limited(MINUTE), "GT", NOW + 200, member],
      ]);
      expect(find(commands, "ZINCRBY", keys.limitedCounts(MINUTE))).toEqual([
        ["ZINCRBY", keys.limitedCounts(MINUTE), 2, member],
      ]);
      expect(find(commands, "ZREMRANGEBYRANK", keys.limited(MINUTE))).toHaveLength(1);
      expect(find(commands, "PEXPIRE", keys.limited(MINUTE))).toEqual([
        ["PEXPIRE", keys.limited(MINUTE), RETENTION_MS],
      ]);
    }
  });
});

describe("flushCommands: callers and descriptors", () => {
  it("JWT subjects and anonymous addresses go to the hot-caller sets, tenant-qualified in the global ones", () => {
    const batch = new DecisionBatch();
    batch.addRequest(req({ keyId: "~alice" }), NOW);
    batch.addRequest(req({ keyId: undefined, ip: "2001:db8::1" }), NOW);
    const groups = commandsOf(batch);
    expect(find(groups.get(T), "ZINCRBY", tk.hotKeys("hour", HOUR))).toEqual([
      ["ZINCRBY", tk.hotKeys("hour", HOUR), 1, "~alice"],
      ["ZINCRBY", tk.hotKeys("hour", HOUR), 1, "@2001:db8::1"],
    ]);
    expect(find(groups.get(GLOBAL_SCOPE), "ZINCRBY", gk.hotKeys("minute", MINUTE))).toEqual([
      ["ZINCRBY", gk.hotKeys("minute", MINUTE), 1, `${T}:~alice`],
      ["ZINCRBY", gk.hotKeys("minute", MINUTE), 1, `${T}:@2001:db8::1`],
    ]);
  });

  it("descriptor subjects go to the hot-descriptor sets, refusals only when there are some", () => {
    const batch = new DecisionBatch();
    const rule = { name: "per-address", ref: "4", scope: "descriptor" as const, descriptorSlot: "0:4" };
    batch.addCheck(T, decisionOf([ruleResult(rule, { allowed: false })]), NOW, undefined, { "0:4": "10.0.0.7" });
    batch.addCheck(T, decisionOf([ruleResult({ ...rule, ref: "5", descriptorSlot: "0:5" })]), NOW, undefined, {
      "0:5": "=",
    });
    const groups = commandsOf(batch);
    const member = JSON.stringify([T, "4", "10.0.0.7"]);
    for (const [scope, keys] of [
      [T, tk],
      [GLOBAL_SCOPE, gk],
    ] as const) {
      expect(find(groups.get(scope), "ZINCRBY", keys.hotDescriptors("minute", MINUTE))).toEqual([
        ["ZINCRBY", keys.hotDescriptors("minute", MINUTE), 1, member],
        ["ZINCRBY", keys.hotDescriptors("minute", MINUTE), 1, JSON.stringify([T, "5", "="])],
      ]);
      expect(find(groups.get(scope), "ZINCRBY", keys.descriptorRefusals("hour", HOUR))).toEqual([
        ["ZINCRBY", keys.descriptorRefusals("hour", HOUR), 1, member],
      ]);
    }
  });
});

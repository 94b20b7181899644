/**
 * Hot callers and hot descriptors against the shared local Redis, under this file's own prefix:
 * requests of an API key, a JWT subject (its safe id) and an anonymous address on a tenant host,
 * and Envoy calls with descriptor subjects, recorded (injected clock), flushed, and read back by
 * the hot-keys and hot-descriptors queries, for one tenant and for all.
 */
import { afterAll, describe, expect, it } from "vitest";
import { decisionOf, ruleResult } from "@/test/support/decisions";
import { HOUR, MIN, monitoringTestBed, NOW, per, perRefused, req } from "@/test/support/monitoringTestBed";

const bed = monitoringTestBed("hotc");
const { queries, recorder, newTenant } = bed;

afterAll(() => bed.close());

describe("hot callers: keys, JWT subjects and anonymous addresses, labelled by kind", () => {
  const A = newTenant();
  const setup = (async () => {
    const r = recorder();
    for (let i = 0; i < 3; i++) r.recordRequest(req(A, "~alice@example.com", decisionOf([per])), NOW + i);
    r.recordRequest(req(A, "~alice@example.com", decisionOf([perRefused])), NOW + 3);
    r.recordRequest({ ...req(A, undefined, decisionOf([perRefused])), ip: "2001:db8::7" }, NOW + 4);
    r.recordRequest({ ...req(A, undefined, decisionOf([per])), ip: "2001:db8::7" }, NOW + 5);
    r.recordRequest(req(A, "KeyAAAA1", decisionOf([per])), NOW + 6);
    expect(await r.flush()).toBe("written");
  })();

  it("one tenant's: most requests first, refusals and the rule that refused most", async () => {
    await setup;
    const hot = await queries.hotKeys({ fromMs: NOW - MIN, toMs: NOW + MIN, tenantId: A });
    expect(hot.keys.map((k) => [k.kind, k.caller, k.keyName, k.requests, k.refused, k.topRule?.name ?? null])).toEqual([
      ["jwt", "alice@example.com", null, 4, 1, "per-key"],
      ["anonymous", "2001:db8::7", null, 2, 1, "per-key"],
      ["key", "KeyAAAA1", "key KeyAAAA1", 1, 0, null],
    ]);
  });

  it("all tenants': the same callers with their tenant", async () => {
    await setup;
    const hot = await queries.hotKeys({ fromMs: NOW - 2 * HOUR, toMs: NOW + MIN });
    expect(hot.keys.filter((k) => k.tenantId === A).map((k) => [k.kind, k.caller, k.requests])).toEqual([
      ["jwt", "alice@example.com", 4],
      ["anonymous", "2001:db8::7", 2],
      ["key", "KeyAAAA1", 1],
    ]);
  });
});

describe("hot descriptors of Envoy's calls", () => {
  const B = newTenant();
  const perAddress = { name: "per-key", ref: "1", scope: "descriptor" as const, descriptorSlot: "0:1" };
  const setup = (async () => {
    const r = recorder();
    const call = (address: string, allowed: boolean) =>
      r.recordCheck(B, decisionOf([ruleResult(perAddress, { allowed })]), NOW, undefined, { "0:1": address });
    call("10.0.0.1", true);
    call("10.0.0.1", true);
    call("10.0.0.1", false);
    call("10.0.0.2", true);
    expect(await r.flush()).toBe("written");
  })();

  it("each value with its calls and refusals, most calls first, for one tenant and for all", async () => {
    await setup;
    const hot = await queries.hotDescriptors({ fromMs: NOW - MIN, toMs: NOW + MIN, tenantId: B });
    expect(hot.descriptors.map((d) => [d.rule.name, d.value, d.requests, d.refused])).toEqual([
      ["per-key", "10.0.0.1", 3, 1],
      ["per-key", "10.0.0.2", 1, 0],
    ]);
    const global = await queries.hotDescriptors({ fromMs: NOW - 2 * HOUR, toMs: NOW + MIN });
    expect(global.descriptors.filter((d) => d.tenantId === B).map((d) => [d.value, d.tenantName])).toEqual([
      ["10.0.0.1", `name of ${B}`],
      ["10.0.0.2", `name of ${B}`],
    ]);
  });
});

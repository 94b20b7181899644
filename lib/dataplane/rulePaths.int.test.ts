/**
 * One meaning for rule paths (contract v3, rule field `match`): rules match the path the protected
 * API sees. Through the gateway that is the path forwarded (`/orders/42` for /api/v1/orders/42),
 * through forward auth the forwarded URI's path, so one rule counts both alike; Sluice's own echo
 * and check keep their full path. The monitoring recorder gets the path rules matched, so the
 * simulator replays a request against the same path.
 */
import { describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { dataPlaneBed } from "@/test/support/dataPlaneBed";

const bed = dataPlaneBed("rulepaths");
const HOUR_MS = 3_600_000;

const limitOn = (path: string, extra: Partial<RuleInput> = {}): RuleInput => ({
  name: "orders",
  algorithm: "fixed_window",
  limit: 2,
  windowMs: HOUR_MS,
  match: { path },
  ...extra,
});

const viaGateway = (key: string, target: string) => bed.send(key, { target });
const viaForwardAuth = (key: string, uri: string) =>
  bed.send(key, { target: "/api/v1/authorize", headers: { "x-forwarded-method": "GET", "x-forwarded-uri": uri } });

describe("a rule on /orders/*", () => {
  it("limits /api/v1/orders/42 through the gateway and /orders/42 through forward auth, on one counter", async () => {
    const { tenantId, key } = await bed.tenant([limitOn("/orders/*")]);
    const first = await viaGateway(key, "/api/v1/orders/42");
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toContain("orders");
    expect((await viaForwardAuth(key, "/orders/7")).status).toBe(200);
    expect((await viaGateway(key, "/api/v1/orders/42")).status).toBe(429);
    expect((await viaForwardAuth(key, "/orders/42?x=1")).status).toBe(429);
    // Only the admitted gateway request reached the upstream, at the path the rule matched.
    expect(bed.reached(tenantId).map((s) => s.url)).toEqual(["/orders/42"]);
    // Not a path it does not name.
    expect((await viaGateway(key, "/api/v1/orders/42/items")).status).toBe(200);
  });

  it("limits through forward auth alone too (a fresh tenant)", async () => {
    const { key } = await bed.tenant([limitOn("/orders/*")]);
    const sent = ["/orders/42", "/orders/42", "/orders/42"];
    const out = [];
    for (const uri of sent) out.push((await viaForwardAuth(key, uri)).status);
    expect(out).toEqual([200, 200, 429]);
  });

  it("is recorded with the path it matched, so the simulator replays it alike", async () => {
    const { tenantId, key } = await bed.tenant([limitOn("/orders/*")]);
    await viaGateway(key, "/api/v1/orders/42?x=1");
    await viaGateway(key, "/api/v1/echo/a");
    await viaForwardAuth(key, "/orders/9");
    expect(bed.recorded(tenantId).map((r) => [r.method, r.path, r.decision === null ? "no rule" : "decided"])).toEqual([
      ["GET", "/orders/42", "decided"],
      ["GET", "/api/v1/echo/a", "no rule"],
      ["GET", "/orders/9", "decided"],
    ]);
  });
});

describe("the other spellings", () => {
  it("a rule on /api/v1/orders/* never meets a gateway request (the rule editor warns about it)", async () => {
    const { key } = await bed.tenant([limitOn("/api/v1/orders/*", { limit: 1 })]);
    for (let i = 0; i < 3; i++) {
      const res = await viaGateway(key, "/api/v1/orders/42");
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBeNull();
    }
  });

  it("a rule on /api/v1/echo/* still limits echo; /echo/* does not (echo keeps its full path)", async () => {
    const { key } = await bed.tenant([
      limitOn("/api/v1/echo/*", { name: "echo" }),
      limitOn("/echo/*", { name: "short", limit: 1 }),
    ]);
    const out = [];
    for (let i = 0; i < 3; i++) out.push((await viaGateway(key, "/api/v1/echo/a")).status);
    expect(out).toEqual([200, 200, 429]);
  });

  it("/** meets every request: the gateway's /api/v1 itself, its paths, and echo", async () => {
    const { key } = await bed.tenant([limitOn("/**", { limit: 4 })]);
    const out = [];
    for (const target of ["/api/v1", "/api/v1/", "/api/v1/orders/1", "/api/v1/echo", "/api/v1/x"])
      out.push((await viaGateway(key, target)).status);
    expect(out).toEqual([200, 200, 200, 200, 429]);
  });
});

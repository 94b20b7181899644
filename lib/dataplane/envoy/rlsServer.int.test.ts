/**
 * Envoy's rate limit service end to end: a real @grpc/grpc-js client sending what Envoy's
 * `envoy.filters.http.ratelimit` sends for its actions (remote_address; request_headers with
 * generic_key/header_value_match shapes), the gRPC server, the limiter on the shared Redis.
 */
import { credentials, status, type ClientReadableStream } from "@grpc/grpc-js";
import { createLimiter } from "@/lib/limiter/decide";
import { rlsProto } from "./rlsProto";
import { startRlsServer } from "./rlsServer";
import { describe, expect, it } from "vitest";
import { freePort } from "@/test/support/freePort";
import { envoyRlsBed, type Entry } from "@/test/support/envoyRlsBed";
import { keysByPrefix, plainRedis } from "@/test/support/testRedis";

const bed = envoyRlsBed("envoy-rls");
const address = (ip: string): Entry[] => [{ key: "remote_address", value: ip }];
const perMinute = { algorithm: "fixed_window", windowMs: 60_000 } as const;

/** A per-minute rule of scope `descriptor` matching `descriptor`, with `more` fields. */
const descriptorRule = (
  name: string,
  limit: number,
  descriptor: { key: string; value?: string }[],
  more: Record<string, unknown> = {},
) => ({ name, scope: "descriptor" as const, limit, ...perMinute, match: { descriptor }, ...more });

describe("ShouldRateLimit over gRPC", () => {
  it("a remote_address descriptor is counted per address, with current_limit, remaining and headers", async () => {
    const domain = await bed.tenant([descriptorRule("per-address", 2, [{ key: "remote_address" }])]);
    const one = () => bed.call({ domain, descriptors: [{ entries: address("10.0.0.1") }] });
    const first = await one();
    expect(first.response!.overall_code).toBe("OK");
    expect(first.response!.statuses[0]).toMatchObject({
      code: "OK",
      current_limit: { name: "per-address", requests_per_unit: 2, unit: "MINUTE" },
      limit_remaining: 1,
    });
    expect(first.response!.response_headers_to_add).toContainEqual(
      expect.objectContaining({ key: "ratelimit-policy", value: '"per-address";q=2;w=60' }),
    );
    expect((await one()).response!.overall_code).toBe("OK");
    const third = await one();
    expect(third.response!.overall_code).toBe("OVER_LIMIT");
    expect(third.response!.statuses[0]).toMatchObject({ code: "OVER_LIMIT", limit_remaining: 0 });
    expect(third.response!.statuses[0]!.duration_until_reset!.seconds).toBeGreaterThan(0);
    expect(third.response!.response_headers_to_add.map((h) => h.key)).toContain("retry-after");
    // Another address has its own counter.
    const other = await bed.call({ domain, descriptors: [{ entries: address("10.0.0.2") }] });
    expect(other.response!.statuses[0]).toMatchObject({ code: "OK", limit_remaining: 1 });
  });

  it("a [path=/login, remote_address] rule counts per address on that path only", async () => {
    const domain = await bed.tenant([
      descriptorRule("login", 1, [{ key: "path", value: "/login" }, { key: "remote_address" }]),
    ]);
    const on = (path: string, ip: string) =>
      bed.call({ domain, descriptors: [{ entries: [{ key: "path", value: path }, ...address(ip)] }] });
    expect((await on("/login", "10.0.0.1")).response!.overall_code).toBe("OK");
    expect((await on("/login", "10.0.0.1")).response!.overall_code).toBe("OVER_LIMIT");
    expect((await on("/login", "10.0.0.2")).response!.overall_code).toBe("OK");
    const elsewhere = await on("/home", "10.0.0.1");
    expect(elsewhere.response!.overall_code).toBe("OK");
    expect(elsewhere.response!.statuses[0]!.current_limit).toBeNull();
  });

  it("one decision over all descriptors: a refusal by one charges none of the others", async () => {
    const domain = await bed.tenant([
      descriptorRule("per-address", 5, [{ key: "remote_address" }]),
      descriptorRule("global", 1, [{ key: "generic_key", value: "api" }]),
    ]);
    const both = {
      domain,
      descriptors: [{ entries: address("10.0.0.9") }, { entries: [{ key: "generic_key", value: "api" }] }],
    };
    const first = await bed.call(both);
    expect(first.response!.statuses.map((s) => [s.code, s.limit_remaining])).toEqual([
      ["OK", 4],
      ["OK", 0],
    ]);
    for (let i = 0; i < 3; i++) {
      const refused = await bed.call(both);
      expect(refused.response!.overall_code).toBe("OVER_LIMIT");
      expect(refused.response!.statuses.map((s) => s.code)).toEqual(["OK", "OVER_LIMIT"]);
    }
    // The refused calls charged nothing to the address: 4 left, as after the first call.
    const alone = await bed.call({ domain, descriptors: [{ entries: address("10.0.0.9") }] });
    expect(alone.response!.statuses[0]).toMatchObject({ code: "OK", limit_remaining: 3 });
  });

  it("hits_addend is the cost (0 means 1); shadow rules never refuse", async () => {
    const domain = await bed.tenant([
      descriptorRule("units", 10, [{ key: "user" }]),
      descriptorRule("watch", 1, [{ key: "user" }], { mode: "shadow" }),
    ]);
    const call = (hits: number) =>
      bed.call({ domain, hits_addend: hits, descriptors: [{ entries: [{ key: "user", value: "u1" }] }] });
    expect((await call(4)).response!.statuses[0]!.limit_remaining).toBe(6);
    expect((await call(0)).response!.statuses[0]!.limit_remaining).toBe(5);
    expect((await call(6)).response!.overall_code).toBe("OVER_LIMIT");
    expect((await call(5)).response!.overall_code).toBe("OK");
  });

  it("an unknown domain, or a descriptor no rule matches: OK with no limits", async () => {
    const unknown = await bed.call({ domain: "Nobody12", descriptors: [{ entries: address("10.0.0.1") }] });
    expect(unknown.response!.overall_code).toBe("OK");
    expect(unknown.response!.statuses).toEqual([
      { code: "OK", current_limit: null, limit_remaining: 0, duration_until_reset: null },
    ]);
  });

  it.each([
    ["no domain", { descriptors: [{ entries: address("10.0.0.1") }] }],
    ["no descriptors", { domain: "Nobody12", descriptors: [] }],
    ["an empty key", { domain: "Nobody12", descriptors: [{ entries: [{ key: "", value: "v" }] }] }],
    [
      "10,000 entries",
      {
        domain: "Nobody12",
        descriptors: [{ entries: Array.from({ length: 10_000 }, (_, i) => ({ key: `k${i}`, value: "v" })) }],
      },
    ],
    ["a huge value", { domain: "Nobody12", descriptors: [{ entries: [{ key: "k", value: "v".repeat(100_000) }] }] }],
    ["a descriptor without entries", { domain: "Nobody12", descriptors: [{ entries: [] }] }],
    [
      "a key over 64 characters",
      { domain: "Nobody12", descriptors: [{ entries: [{ key: "k".repeat(65), value: "v" }] }] },
    ],
    ["65 descriptors", { domain: "Nobody12", descriptors: Array(65).fill({ entries: address("10.0.0.1") }) }],
  ])("%s: INVALID_ARGUMENT, and the server keeps serving", async (_, request) => {
    const answer = await bed.call(request);
    expect(answer.error?.code).toBe(status.INVALID_ARGUMENT);
    expect((await bed.health("")).status).toBe("SERVING");
  });

  it("a message over 1 MiB is refused before it is decoded (RESOURCE_EXHAUSTED)", async () => {
    const answer = await bed.call({
      domain: "Nobody12",
      descriptors: [{ entries: [{ key: "k", value: "v".repeat(2 * 1024 * 1024) }] }],
    });
    expect(answer.error?.code).toBe(status.RESOURCE_EXHAUSTED);
  });

  it("health: SERVING for the server and the rate limit service, NOT_FOUND for another", async () => {
    expect((await bed.health("")).status).toBe("SERVING");
    expect((await bed.health("envoy.service.ratelimit.v3.RateLimitService")).status).toBe("SERVING");
    expect((await bed.health("other.Service")).error?.code).toBe(status.NOT_FOUND);
  });

  it("keys live under the tenant's hash tag with the descriptor scope char", async () => {
    const domain = await bed.tenant([descriptorRule("per-address", 2, [{ key: "remote_address" }])]);
    await bed.call({ domain, descriptors: [{ entries: address("192.0.2.7") }] });
    expect(await keysByPrefix(bed.redis, `${bed.prefix}{${domain}}`)).toEqual([`${bed.prefix}{${domain}}2E192.0.2.7`]);
  });
});

describe("the rule store (Postgres) down", () => {
  it("the rules last loaded stay in force", async () => {
    const domain = await bed.tenant([descriptorRule("per-address", 1, [{ key: "remote_address" }])]);
    bed.storeDown(true);
    try {
      await bed.reload();
      const request = { domain, descriptors: [{ entries: address("10.3.3.3") }] };
      expect((await bed.call(request)).response!.overall_code).toBe("OK");
      expect((await bed.call(request)).response!.overall_code).toBe("OVER_LIMIT");
    } finally {
      bed.storeDown(false);
    }
  });
});

describe("the descriptors Envoy's actions send (docs/envoy.md)", () => {
  it("masked_remote_address, request_headers, header_value_match and generic_key each meet their rule", async () => {
    const domain = await bed.tenant([
      descriptorRule("per-24", 1, [{ key: "masked_remote_address" }]),
      descriptorRule("per-user", 1, [{ key: "user" }]),
      descriptorRule("posts", 1, [{ key: "header_match", value: "post" }]),
      descriptorRule("address-and-user", 1, [{ key: "remote_address" }, { key: "user" }]),
    ]);
    // masked_remote_address { v4_prefix_mask_len: 24 }: one counter per /24.
    const masked = (value: string) =>
      bed.call({ domain, descriptors: [{ entries: [{ key: "masked_remote_address", value }] }] });
    expect((await masked("10.1.2.0/24")).response!.overall_code).toBe("OK");
    expect((await masked("10.1.2.0/24")).response!.overall_code).toBe("OVER_LIMIT");
    expect((await masked("10.1.3.0/24")).response!.overall_code).toBe("OK");
    // request_headers { header_name: x-user-id, descriptor_key: user }.
    const user = (value: string) => bed.call({ domain, descriptors: [{ entries: [{ key: "user", value }] }] });
    expect((await user("alice")).response!.statuses[0]!.current_limit!.name).toBe("per-user");
    expect((await user("alice")).response!.overall_code).toBe("OVER_LIMIT");
    expect((await user("bob")).response!.overall_code).toBe("OK");
    // header_value_match { descriptor_value: post }: key header_match.
    const posts = await bed.call({ domain, descriptors: [{ entries: [{ key: "header_match", value: "post" }] }] });
    expect(posts.response!.statuses[0]!.current_limit!.name).toBe("posts");
    const other = await bed.call({ domain, descriptors: [{ entries: [{ key: "header_match", value: "get" }] }] });
    expect(other.response!.statuses[0]!.current_limit).toBeNull();
    // [remote_address, request_headers(user)] in one descriptor: only the two-key rule applies.
    const both = await bed.call({
      domain,
      descriptors: [{ entries: [...address("10.9.9.9"), { key: "user", value: "carol" }] }],
    });
    expect(both.response!.statuses[0]!.current_limit!.name).toBe("address-and-user");
    expect((await user("carol")).response!.overall_code).toBe("OK");
  });
});

describe("two instances sharing one Redis", () => {
  const second = envoyRlsBed("envoy-rls-second", { prefix: bed.prefix });

  it("enforce exactly the limit across both", async () => {
    const rules = [descriptorRule("per-address", 5, [{ key: "remote_address" }])];
    const domain = await bed.tenant(rules);
    await second.tenant(rules, domain);
    const request = { domain, descriptors: [{ entries: address("10.1.1.1") }] };
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? bed : second).call(request)));
    expect(answers.filter((a) => a.response?.overall_code === "OK")).toHaveLength(5);
    expect(answers.filter((a) => a.response?.overall_code === "OVER_LIMIT")).toHaveLength(7);
  });
});

describe("ShouldRateLimit with Redis unreachable", async () => {
  const down = envoyRlsBed("envoy-rls-down", { redisUrl: `redis://127.0.0.1:${await freePort()}` });
  const rule = (failMode: "open" | "closed") =>
    descriptorRule(`per-address-${failMode}`, 1, [{ key: "remote_address" }], { failMode });

  it("a closed rule: gRPC UNAVAILABLE (Envoy then applies failure_mode_deny)", async () => {
    const domain = await down.tenant([rule("closed")]);
    const answer = await down.call({ domain, descriptors: [{ entries: address("10.0.0.1") }] });
    expect(answer.error?.code).toBe(status.UNAVAILABLE);
  });

  it("an open rule: OK", async () => {
    const domain = await down.tenant([rule("open")]);
    const answer = await down.call({ domain, descriptors: [{ entries: address("10.0.0.1") }] });
    expect(answer.response!.overall_code).toBe("OK");
  });
});

describe("graceful stop", () => {
  it("health watchers are told NOT_SERVING and ended; the port then refuses calls", async () => {
    const redis = plainRedis();
    const server = await startRlsServer({
      host: "127.0.0.1",
      port: 0,
      deps: { tenant: () => undefined, limiter: createLimiter({ redis, prefix: "unused:", timeoutMs: 200 }) },
    });
    const target = `127.0.0.1:${server.port}`;
    const health = new (rlsProto().Health)(target, credentials.createInsecure());
    const rls = new (rlsProto().RateLimitService)(target, credentials.createInsecure());
    try {
      const watch = (
        health as unknown as Record<string, (r: unknown) => ClientReadableStream<{ status: string }>>
      ).Watch!.call(health, { service: "" });
      const seen: string[] = [];
      const ended = new Promise<void>((resolve) => {
        watch.on("data", (m: { status: string }) => seen.push(m.status));
        watch.on("end", () => resolve());
        watch.on("error", () => resolve());
      });
      await new Promise<void>((resolve) => watch.once("data", () => resolve()));
      await server.stop(1_000);
      await ended;
      expect(seen).toEqual(["SERVING", "NOT_SERVING"]);
      const after = await new Promise<number | undefined>((resolve) =>
        (
          rls as unknown as Record<string, (r: unknown, o: unknown, cb: (e: { code: number } | null) => void) => void>
        ).ShouldRateLimit!.call(rls, { domain: "x", descriptors: [] }, { deadline: Date.now() + 2_000 }, (e) =>
          resolve(e?.code),
        ),
      );
      expect(after).toBeDefined();
      expect(after).not.toBe(status.INVALID_ARGUMENT);
    } finally {
      health.close();
      rls.close();
      redis.disconnect();
    }
  });
});

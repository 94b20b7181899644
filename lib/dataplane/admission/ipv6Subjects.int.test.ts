/**
 * IPv6 clients are limited per /64 (lib/limiter/limitingAddress.ts) by everything that limits per
 * client address: `ip` rules, the anonymous limit (through admit) and the login limit, against the
 * shared Redis under a prefix of this test. One host rotating through its /64 must not escape.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import {
  checkLoginAllowed,
  LOGIN_FAILURES_PER_IP,
  loginSubject,
  recordLoginFailure,
} from "../../control/auth/loginLimit";
import { createLimiter } from "../../limiter/decide";
import type { AccessCache } from "../../policy/compiled/accessCache";
import { admit } from "./admit";

const redis = plainRedis();
const prefix = uniquePrefix("ipv6");
const limiter = createLimiter({ redis, prefix, timeoutMs: 5000 });
let hostSeq = 1;
/** Another address of the same host: a new interface id inside 2001:db8:a:b::/64. */
const rotated = () => `2001:db8:a:b:${(hostSeq++).toString(16)}:${((hostSeq * 7919) % 0x10000).toString(16)}::1`;

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

describe("IPv6 clients are limited per /64", () => {
  it("an ip rule: 5 admitted for the /64, whatever address each request comes from", async () => {
    const rule = limiterRule({ scope: "ip", algorithm: "sliding_window", limit: 5, windowMs: 60_000 });
    const decisions = [];
    for (let i = 0; i < 8; i++) decisions.push(await limiter.decide([rule], { tenantId: "v6rule", ip: rotated() }));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect((await limiter.decide([rule], { tenantId: "v6rule", ip: "2001:db8:a:c::1" })).allowed).toBe(true);
  });

  it("the anonymous limit: requests without a key from a rotating /64 are refused after the limit", async () => {
    const access = { ready: async () => {}, isReady: () => true, key: () => undefined } as unknown as AccessCache;
    const deps = { access, limiter, anonLimitPerMinute: 3, enforce: true };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      // The data plane hands admit() the connection's address (lib/dataplane/dataPlane.ts).
      const admission = await admit(
        { method: "GET", path: "/api/v1/things", headers: new Headers(), ip: rotated() },
        deps,
      );
      statuses.push(admission.kind === "admitted" ? 200 : admission.reply.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it("the login limit: failures from rotating addresses of one /64 add up to the per-address limit", async () => {
    for (let i = 0; i < LOGIN_FAILURES_PER_IP; i++) {
      const subject = loginSubject(rotated(), `v6-${prefix}-${i}@example.com`);
      expect((await checkLoginAllowed(limiter, subject)).allowed).toBe(true);
      await recordLoginFailure(limiter, subject);
    }
    expect((await checkLoginAllowed(limiter, loginSubject(rotated(), `v6-${prefix}-fresh@example.com`))).allowed).toBe(
      false,
    );
    expect(
      (await checkLoginAllowed(limiter, loginSubject("2001:db8:a:d::1", `v6-${prefix}-fresh@example.com`))).allowed,
    ).toBe(true);
  });
});

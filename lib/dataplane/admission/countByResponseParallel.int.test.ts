/**
 * Count by response under parallel load (issue 28 point 2), in process: the data plane with its
 * real admission and gateway (test/support/oneKeyDataPlane.ts), a limiter on the shared Redis under
 * this test's prefix, and an upstream that holds every request until the test answers it. With
 * `chargeOn: ["4xx"]` and limit 3, 40 requests sent at once: only 3 may reach the upstream while
 * they are in flight (before, all 40 did: the rule was checked at admission and charged later).
 * The same through two built servers: test/http/countByResponse.int.test.ts.
 */
import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { startOneKeyDataPlane } from "@/test/support/oneKeyDataPlane";
import { startTestUpstream } from "@/test/support/testUpstream";
import { waitUntil } from "@/test/support/sluiceEnv";
import { createLimiter } from "../../limiter/decide";
import { ALGORITHMS } from "../../limiter/types";
import { closeGatewayAgent } from "../gateway/gatewayAgent";

const redis = plainRedis();
const prefix = uniquePrefix("by-response-parallel");
const limiter = createLimiter({ redis, prefix, timeoutMs: 5000 });

afterAll(async () => {
  await closeGatewayAgent();
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

describe.each(ALGORITHMS)("a %s rule counted by response, limit 3", (algorithm) => {
  it("lets only 3 of 40 parallel requests reach the upstream while they are in flight", async () => {
    const held: http.ServerResponse[] = [];
    const upstream = await startTestUpstream((req, res) => {
      req.resume();
      held.push(res);
    });
    const plane = await startOneKeyDataPlane({
      rules: [{ name: "logins", algorithm, limit: 3, windowMs: 3_600_000, chargeOn: ["4xx"] }],
      limiter,
      upstreamUrl: upstream.url,
      keyId: `ParKey0${ALGORITHMS.indexOf(algorithm)}`,
      tenantId: `par-${algorithm}`,
    });
    try {
      const statuses: number[] = [];
      const all = Promise.all(
        Array.from(
          { length: 40 },
          (_, i) =>
            new Promise<void>((resolve, reject) =>
              http
                .request(
                  `${plane.url}/api/v1/login/${i}`,
                  { method: "POST", headers: { authorization: `Bearer ${plane.key}` }, agent: false },
                  (res) => {
                    res.resume();
                    statuses.push(res.statusCode!);
                    resolve();
                  },
                )
                .on("error", reject)
                .end(),
            ),
        ),
      );
      await waitUntil(
        async () => statuses.length + held.length === 40 || held.length > 3,
        20_000,
        "every request answered or held",
      );
      expect(held).toHaveLength(3);
      expect(statuses).toEqual(Array(37).fill(429));
      for (const res of held.splice(0)) res.writeHead(401).end();
      await all;
      expect(upstream.seen).toHaveLength(3);
    } finally {
      for (const res of held) res.destroy();
      await plane.close();
      await upstream.close();
    }
  });
});

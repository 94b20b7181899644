/**
 * A request the control plane (dashboard, admin API) answers before reading its body must not
 * poison its keep-alive connection (contract v3, HTTP semantics): the client's next request on the
 * same connection is answered, or the connection is closed at once, never left to hang until the
 * keep-alive timeout. On a built server (`npm run build` first), over one raw socket
 * (test/support/rawConnection.ts).
 */
import { beforeAll, expect, it } from "vitest";
import { openRawConnection, type NextAnswer } from "@/test/support/rawConnection";
import type { SluiceServer } from "@/test/support/sluiceServer";
import { oneServerForSuite } from "@/test/support/twoServers";

// Far past what the server waits for: a poisoned connection stays silent for its whole keep-alive timeout (65 s).
const ANSWER_WITHIN_MS = 15_000;

const suite = oneServerForSuite("cp-keepalive");
let server: SluiceServer;

beforeAll(() => {
  ({ server } = suite);
});

const describeAnswer = (a: NextAnswer) => (typeof a === "string" ? a : `${a.status} ${a.text.slice(0, 200)}`);

it.each([
  ["with the admin token", true],
  ["without credentials", false],
])(
  "a 3 MB body to POST /api/admin/tenants (%s) is refused, and the next request on that connection is answered or the connection closed",
  async (_, authorized) => {
    const connection = await openRawConnection(server.url);
    try {
      connection.send({
        method: "POST",
        target: "/api/admin/tenants",
        headers: {
          "content-type": "application/json",
          ...(authorized ? { authorization: `Bearer ${suite.env.adminToken}` } : {}),
        },
        body: Buffer.alloc(3 * 1024 * 1024, "a"),
      });
      const first = await connection.nextAnswer(ANSWER_WITHIN_MS);
      expect(typeof first === "string" ? first : first.status, describeAnswer(first)).toBe(authorized ? 413 : 401);
      if (typeof first === "string") return;
      connection.send({ method: "GET", target: "/api/openapi.json" });
      const second = await connection.nextAnswer(ANSWER_WITHIN_MS);
      if (first.headers.get("connection")?.toLowerCase() === "close") {
        // Said so, and did so: the second request is never read.
        expect(second, describeAnswer(second)).toBe("closed");
      } else {
        // Kept alive: then the body was drained and the next request is served.
        expect(typeof second === "string" ? second : second.status, describeAnswer(second)).toBe(200);
      }
    } finally {
      connection.close();
    }
  },
);

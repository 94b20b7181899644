/**
 * Sluice's session cookie never crosses the gateway (lib/dataplane/gateway/sluiceCookies.ts), and
 * its answers are never sniffed: through a bare forwarding server and a real upstream
 * (test/support/gatewayBench.ts).
 */
import { expect, it } from "vitest";
import { freePort } from "@/test/support/freePort";
import { send, gatewayBench } from "@/test/support/gatewayBench";

const { front, upstream } = gatewayBench();

it("the operator's session cookie is not sent to the upstream, the upstream's own cookies are", async () => {
  const up = await upstream();
  await send(await front(up.url), {
    path: "/api/v1/h",
    headers: { cookie: "sluice_session=operator-token; theirs=1; __Host-sluice_session=other; also=2" },
  });
  expect(up.seen[0]!.headers.cookie).toBe("theirs=1; also=2");

  const alone = await upstream();
  await send(await front(alone.url), { path: "/api/v1/h", headers: { cookie: "sluice_session=operator-token" } });
  expect(alone.seen[0]!.headers.cookie).toBeUndefined();
});

it("an upstream cannot set Sluice's session cookie on the client; its other cookies pass; nosniff is added", async () => {
  const up = await upstream((req, res) => {
    req.resume();
    res.writeHead(200, {
      "content-type": "text/plain",
      "set-cookie": ["sluice_session=planted; Path=/", "__Host-sluice_session=planted; Path=/; Secure", "theirs=2"],
    });
    res.end("ok");
  });
  const res = await send(await front(up.url), { path: "/api/v1/h" });
  expect(res.headers["set-cookie"]).toEqual(["theirs=2"]);
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
});

it("an upstream's own X-Content-Type-Options is kept", async () => {
  const up = await upstream((req, res) => {
    req.resume();
    res.writeHead(200, { "x-content-type-options": "nosniff", "set-cookie": "sluice_session=planted" });
    res.end("ok");
  });
  const res = await send(await front(up.url), { path: "/api/v1/h" });
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
  expect(res.headers["set-cookie"]).toBeUndefined();
});

it("the gateway's own 502 carries nosniff too", async () => {
  // A port nothing listens on: refused at once.
  const res = await send(await front(`http://127.0.0.1:${await freePort()}`), { path: "/api/v1/h" });
  expect(res.status).toBe(502);
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
});

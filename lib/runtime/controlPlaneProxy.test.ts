import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { openRawConnection } from "@/test/support/rawConnection";
import { controlPlaneProxy } from "./controlPlaneProxy";

const SECRET = "peer-secret-of-this-process";
const servers: http.Server[] = [];

function listen(server: http.Server): Promise<void> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
}

/** The control plane's stand-in on a Unix socket (Linux's abstract namespace: no file left behind). */
async function controlPlane(handler: http.RequestListener): Promise<string> {
  const socketPath = `\0sluice-proxy-test-${process.pid}-${servers.length}`;
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socketPath, () => resolve()));
  return socketPath;
}

/** The main thread's server in front of it; its URL. */
async function front(socketPath: string): Promise<string> {
  const server = http.createServer(controlPlaneProxy(socketPath, SECRET));
  await listen(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("controlPlaneProxy", () => {
  it("forwards method, target, headers and body, with the peer's address replacing what the client claimed", async () => {
    let seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string } | undefined;
    const url = await front(
      await controlPlane((req, res) => {
        let body = "";
        req.on("data", (chunk: Buffer) => (body += chunk.toString()));
        req.on("end", () => {
          seen = { method: req.method, url: req.url, headers: req.headers, body };
          res.end("ok");
        });
      }),
    );
    const answer = await fetch(`${url}/api/admin/tenants?x=1`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-sluice-peer": "6.6.6.6",
        "x-sluice-peer-auth": "guess",
        te: "trailers",
      },
      body: JSON.stringify({ name: "acme" }),
    });
    expect(answer.status).toBe(200);
    expect(seen).toMatchObject({ method: "POST", url: "/api/admin/tenants?x=1", body: '{"name":"acme"}' });
    expect(seen!.headers).toMatchObject({ "content-type": "application/json", "x-sluice-peer-auth": SECRET });
    expect(seen!.headers["x-sluice-peer"]).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(seen!.headers.te).toBeUndefined();
  });

  it("answers with the control plane's status, headers and streamed body", async () => {
    const url = await front(
      await controlPlane((_req, res) => {
        res.writeHead(201, { "set-cookie": ["a=1; Path=/", "b=2; Path=/"], "x-page": "tenants" });
        res.write("first part, ");
        setTimeout(() => res.end("second part"), 20);
      }),
    );
    const answer = await fetch(`${url}/tenants`);
    expect(answer.status).toBe(201);
    expect(answer.headers.get("x-page")).toBe("tenants");
    expect(answer.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(await answer.text()).toBe("first part, second part");
  });

  it("answers 500 problem+json when the control plane cannot be reached", async () => {
    const url = await front(`\0sluice-proxy-test-${process.pid}-nobody`);
    const answer = await fetch(`${url}/api/health`);
    expect(answer.status).toBe(500);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(await answer.json()).toMatchObject({ status: 500, detail: expect.stringMatching(/did not answer/) });
  });

  it("aborts the forwarded request when the client goes away", async () => {
    let aborted!: () => void;
    const gone = new Promise<void>((resolve) => (aborted = resolve));
    const url = await front(
      await controlPlane((req, res) => {
        res.writeHead(200);
        res.write("started");
        req.socket.on("close", () => aborted());
      }),
    );
    const controller = new AbortController();
    const answer = await fetch(`${url}/slow`, { signal: controller.signal });
    expect(answer.status).toBe(200);
    controller.abort();
    await gone;
  });

  it("an answer sent before the body arrived says Connection: close and closes: the next request never waits behind the body", async () => {
    const url = await front(
      await controlPlane((_req, res) => {
        // As Next's admin API answers a body over 64 KiB: at once, without reading it.
        res.writeHead(413, { "content-type": "application/problem+json" });
        res.end('{"status":413}');
      }),
    );
    const connection = await openRawConnection(url);
    try {
      connection.send({ method: "POST", target: "/api/admin/tenants", body: Buffer.alloc(3 * 1024 * 1024, "a") });
      const first = await connection.nextAnswer(10_000);
      expect(typeof first === "string" ? first : first.status).toBe(413);
      expect(typeof first === "string" ? null : first.headers.get("connection")).toBe("close");
      connection.send({ method: "GET", target: "/api/health" });
      expect(await connection.nextAnswer(10_000)).toBe("closed");
    } finally {
      connection.close();
    }
  });
});

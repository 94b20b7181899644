/**
 * forwardToUpstream streams bodies both ways (test/support/gatewayBench.ts: real upstreams behind
 * a bare forwarding server): a large upload reaches the upstream while still being sent, the
 * answer is passed on chunk by chunk, and a client that reads slowly holds the upstream back.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import { describe, expect, it } from "vitest";
import { gatewayBench } from "@/test/support/gatewayBench";
import { waitUntil } from "@/test/support/sluiceEnv";

const { front, upstream } = gatewayBench();

describe("streaming both ways", () => {
  it("a 48 MiB upload in 64 KiB chunks reaches the upstream while still being sent, and its echo streams back whole", async () => {
    const CHUNK = 64 * 1024;
    const CHUNKS = 768;
    let received = 0;
    const up = await upstream((req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      req.on("data", (c: Buffer) => (received += c.length));
      req.pipe(res);
    });
    const port = await front(up.url);
    const sentHash = createHash("sha256");
    const gotHash = createHash("sha256");
    let got = 0;
    let receivedWhenHalfSent = -1;
    let gotWhenHalfSent = -1;
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/v1/upload",
          agent: false,
          headers: { "content-type": "application/octet-stream" },
        },
        (res) => {
          res.on("data", (c: Buffer) => {
            got += c.length;
            gotHash.update(c);
          });
          res.on("end", () => resolve(res.statusCode!));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      let i = 0;
      const writeMore = () => {
        while (i < CHUNKS) {
          if (i === CHUNKS / 2) {
            receivedWhenHalfSent = received;
            gotWhenHalfSent = got;
          }
          const chunk = randomBytes(CHUNK);
          sentHash.update(chunk);
          i++;
          if (!req.write(chunk)) return void req.once("drain", writeMore);
        }
        req.end();
      };
      writeMore();
    });
    expect(status).toBe(200);
    expect(got).toBe(CHUNK * CHUNKS);
    expect(gotHash.digest("hex")).toBe(sentHash.digest("hex"));
    // Not buffered: halfway through the upload the upstream had data and its echo was coming back.
    expect(receivedWhenHalfSent).toBeGreaterThan(0);
    expect(gotWhenHalfSent).toBeGreaterThan(0);
  });

  it("the answer is passed on chunk by chunk: the client reads the first part before the upstream sends the rest", async () => {
    let release!: () => void;
    const rest = new Promise<void>((resolve) => (release = resolve));
    const up = await upstream((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first;");
      void rest.then(() => res.end("rest"));
    });
    const port = await front(up.url);
    const text = await new Promise<string>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/api/v1/stream", agent: false }, (res) => {
          let all = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => {
            all += c;
            if (all === "first;") release();
          });
          res.on("end", () => resolve(all));
        })
        .on("error", reject);
    });
    expect(text).toBe("first;rest");
  });

  it("a client that stops reading holds the upstream back (nothing piles up in Sluice), and then gets every byte", async () => {
    const CHUNK = 64 * 1024;
    const TOTAL = 1024 * CHUNK; // 64 MiB: more than every socket buffer on the way together
    let written = 0;
    let blocked = false;
    const up = await upstream((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(TOTAL) });
      const writeMore = () => {
        while (written < TOTAL) {
          written += CHUNK;
          if (!res.write(Buffer.alloc(CHUNK, 7))) {
            blocked = true;
            return void res.once("drain", writeMore);
          }
        }
        res.end();
      };
      writeMore();
    });
    const port = await front(up.url);
    let answer!: http.IncomingMessage;
    await new Promise<void>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/api/v1/big", agent: false }, (res) => {
          res.pause();
          answer = res;
          resolve();
        })
        .on("error", reject);
    });
    await waitUntil(async () => blocked, 5_000, "the upstream's writes were held back");
    // Without backpressure the gateway would read the whole answer into memory meanwhile (the
    // upstream finishes writing in well under this second); with it the upstream stays blocked.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(written).toBeLessThan(TOTAL);
    let got = 0;
    await new Promise<void>((resolve, reject) => {
      answer.on("data", (c: Buffer) => (got += c.length));
      answer.on("end", resolve);
      answer.on("error", reject);
      answer.resume();
    });
    expect(got).toBe(TOTAL);
  });
});

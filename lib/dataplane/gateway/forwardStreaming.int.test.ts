/**
 * forwardToUpstream streams bodies both ways (test/support/gatewayBench.ts: real upstreams behind
 * a bare forwarding server): a large upload reaches the upstream while still being sent, and the
 * answer is passed on chunk by chunk.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import { describe, expect, it } from "vitest";
import { gatewayBench } from "@/test/support/gatewayBench";

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
});

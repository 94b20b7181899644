/**
 * A test upstream API on the loopback for the gateway's tests: an HTTP server on a free port that
 * records every request it receives (method, URL, headers, body size) and the connections opened
 * to it, and answers each with `handler` (default: 200 JSON naming the method and URL). Tests
 * count what reached it ("a refused request is never forwarded") and read what it saw.
 * `close()` ends every connection and stops it.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface TestUpstream {
  url: string;
  port: number;
  seen: SeenRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export type UpstreamHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const answerJson: UpstreamHandler = (req, res) => {
  req.resume();
  req.on("end", () => {
    const body = JSON.stringify({ upstream: true, method: req.method, url: req.url });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
};

export async function startTestUpstream(handler: UpstreamHandler = answerJson): Promise<TestUpstream> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    handler(req, res);
  });
  server.keepAliveTimeout = 30_000;
  server.on("connection", (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    connections: () => connections,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One kept-alive HTTP/1.1 connection on a plain socket, for tests of what a server does to the
 * NEXT request on a connection (test/support/rawHttp.ts sends one request per connection):
 * `send(request)` writes a request exactly as given (head and body, all at once); `nextAnswer()`
 * reads the next answer (framed by Content-Length or chunked), or says the server closed the
 * connection first, or that nothing came within `timeoutMs` (a poisoned connection).
 * `close()` destroys the socket.
 */
import net from "node:net";

export interface RawConnectionAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export type NextAnswer = RawConnectionAnswer | "closed" | "timeout";

export interface RawConnection {
  send(request: { method: string; target: string; headers?: Record<string, string>; body?: Buffer | string }): void;
  nextAnswer(timeoutMs: number): Promise<NextAnswer>;
  close(): void;
}

/** The first answer in `data`, and the bytes after it; null while incomplete. */
function parseAnswer(data: Buffer): { answer: RawConnectionAnswer; rest: Buffer } | null {
  const end = data.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const lines = data.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "")?.[1] ?? "0");
  const headers = new Headers();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  let at = end + 4;
  if (/chunked/i.test(headers.get("transfer-encoding") ?? "")) {
    const chunks: Buffer[] = [];
    for (;;) {
      const lineEnd = data.indexOf("\r\n", at);
      if (lineEnd < 0) return null;
      const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
      if (data.length < lineEnd + 2 + size + 2) return null;
      chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
      if (size === 0) break;
    }
    return { answer: { status, headers, text: Buffer.concat(chunks).toString("utf8") }, rest: data.subarray(at) };
  }
  const length = Number(headers.get("content-length") ?? "0");
  if (data.length < at + length) return null;
  return {
    answer: { status, headers, text: data.subarray(at, at + length).toString("utf8") },
    rest: data.subarray(at + length),
  };
}

export async function openRawConnection(baseUrl: string): Promise<RawConnection> {
  const url = new URL(baseUrl);
  const socket = net.connect({ host: url.hostname, port: Number(url.port) });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let received: Buffer = Buffer.alloc(0);
  let closed = false;
  let wake: (() => void) | null = null;
  socket.on("error", () => undefined);
  socket.on("data", (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wake?.();
  });
  socket.on("close", () => {
    closed = true;
    wake?.();
  });
  return {
    send({ method, target, headers = {}, body }) {
      const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
      const head = [
        `${method} ${target} HTTP/1.1`,
        `host: ${url.host}`,
        ...(body === undefined ? [] : [`content-length: ${payload.length}`]),
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ].join("\r\n");
      socket.write(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, "latin1"), payload]));
    },
    async nextAnswer(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const parsed = parseAnswer(received);
        if (parsed) {
          received = parsed.rest;
          return parsed.answer;
        }
        if (closed) return "closed";
        const left = deadline - Date.now();
        if (left <= 0) return "timeout";
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    },
    close: () => socket.destroy(),
  };
}

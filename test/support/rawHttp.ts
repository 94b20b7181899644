/**
 * One HTTP request with the request target sent exactly as given (fetch and `new Request` would
 * resolve `..`, re-encode or drop parts of it), answered with status, headers and the body text.
 * For tests of path handling and of the data plane's own server.
 *
 * Header values Node's client refuses to send (control characters, text beyond Latin-1) are sent
 * anyway, as UTF-8 bytes over a plain socket with `Connection: close`: a hostile client can send
 * them, so the server's answer to them is tested too.
 */
import http from "node:http";
import net from "node:net";

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export interface RawRequest {
  method?: string;
  /** The request target as sent: path and query, e.g. `/api/v1/echo/a%2Fb?x=1`. */
  target: string;
  /** A list: the header sent once per value, on lines of its own (as a client may). */
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

const TIMEOUT_MS = 30_000;

type HeaderLines = Record<string, string | string[]>;

function sendable(headers: HeaderLines): boolean {
  try {
    for (const [name, values] of Object.entries(headers))
      for (const value of [values].flat()) http.validateHeaderValue(name, value);
    return true;
  } catch {
    return false;
  }
}

export function rawRequest(baseUrl: string, init: RawRequest): Promise<RawAnswer> {
  const headers = { ...init.headers };
  // Node's client frames a GET, DELETE or OPTIONS body with neither header: the server would read it as the next request.
  const framed = Object.keys(headers).some((n) => /^(content-length|transfer-encoding)$/i.test(n));
  if (init.body !== undefined && !framed) headers["content-length"] = String(Buffer.byteLength(init.body));
  return sendable(headers) ? viaClient(baseUrl, init, headers) : viaSocket(baseUrl, init, headers);
}

function viaClient(baseUrl: string, init: RawRequest, headers: HeaderLines): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: init.method ?? "GET",
        path: init.target,
        headers,
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) answerHeaders.append(name, v);
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: answerHeaders,
            text: Buffer.concat(chunks).toString("utf8"),
          });
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () =>
      req.destroy(new Error(`rawRequest: no answer to ${init.method ?? "GET"} ${init.target} within ${TIMEOUT_MS} ms`)),
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

function viaSocket(baseUrl: string, init: RawRequest, headers: HeaderLines): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const body = init.body === undefined ? Buffer.alloc(0) : Buffer.from(init.body);
  const head = [
    `${init.method ?? "GET"} ${init.target} HTTP/1.1`,
    `host: ${url.host}`,
    "connection: close",
    ...(headers["content-length"] ? [] : [`content-length: ${body.length}`]),
    ...Object.entries(headers).flatMap(([n, values]) => [values].flat().map((v) => `${n}: ${v}`)),
  ].join("\r\n");
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(TIMEOUT_MS, () =>
      socket.destroy(new Error(`rawRequest: no answer to ${init.target} within ${TIMEOUT_MS} ms`)),
    );
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const lines = text.slice(0, split < 0 ? text.length : split).split("\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? "")?.[1] ?? "0");
      const answerHeaders = new Headers();
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(":");
        if (colon > 0) answerHeaders.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      if (status === 0)
        reject(new Error(`rawRequest: no HTTP answer to ${init.target}: ${JSON.stringify(text.slice(0, 200))}`));
      else resolve({ status, headers: answerHeaders, text: split < 0 ? "" : text.slice(split + 4) });
    });
    socket.write(Buffer.concat([Buffer.from(head + "\r\n\r\n", "utf8"), body]));
  });
}

/**
 * The data plane's side of node:http: reading a request's headers and body, and writing a `Reply`
 * with the security headers every Sluice API answer carries (lib/http/securityHeaders.js, the same
 * set next.config.js puts on /api responses).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HeaderSource } from "./admission/credentials";
import { bodyTooLarge, decodeUtf8Body } from "../http/readJsonBody";
import { absoluteForm } from "./requestPath";
import type { Reply } from "../http/reply";
import {
  API_CONTENT_SECURITY_POLICY,
  COMMON_SECURITY_HEADERS,
  STRICT_TRANSPORT_SECURITY,
} from "../http/securityHeaders.js";

const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...COMMON_SECURITY_HEADERS,
  "Content-Security-Policy": API_CONTENT_SECURITY_POLICY,
});
const SECURE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...SECURITY_HEADERS,
  "Strict-Transport-Security": STRICT_TRANSPORT_SECURITY,
});
/** As next.config.js: the first X-Forwarded-Proto value is what the outermost proxy saw. */
const HTTPS_FORWARDED = /^https(,.*)?$/;

/** One header's value; repeated headers joined by ", " (node already does so for most). */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

export function headerSource(req: IncomingMessage): HeaderSource {
  return { get: (name) => headerOf(req, name), all: (name) => req.headersDistinct[name] };
}

/**
 * Rewrites a request in absolute-form to origin-form before it is routed (lib/dataplane/requestPath.ts
 * `absoluteForm`): its target becomes the path and query, its Host the target's authority. Both
 * planes then see the request as if it had been sent in origin-form.
 */
export function toOriginForm(req: IncomingMessage): void {
  const url = req.url;
  if (url === undefined || url.startsWith("/")) return;
  const absolute = absoluteForm(url);
  if (!absolute) return;
  req.url = absolute.originForm;
  req.headers.host = absolute.authority;
}

/**
 * The body's text (UTF-8, as readJsonStream decodes it: invalid UTF-8 rejects with a 400), at most
 * `maxBytes`: beyond, rejects with `bodyTooLarge()` and leaves the rest unread without destroying
 * the request, so the answer can still be written; the connection is closed after it (`Connection: close`). Read with events, not
 * an async iterator: the iterator's promises and machinery cost ~3% of /api/v1/check's CPU.
 */
export function readBodyText(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error: unknown, text?: string) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      if (error) reject(error);
      else resolve(text ?? "");
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else {
        req.pause();
        settle(bodyTooLarge());
      }
    };
    const onEnd = () => {
      if (size === 0) return settle(null, "");
      try {
        settle(null, decodeUtf8Body(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
      } catch (error) {
        settle(error);
      }
    };
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(new Error("The client closed the connection before the end of its body."));
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onError);
    req.once("close", onClose);
  });
}

/**
 * The body's text when all of it is buffered already, read now: no listener, no promise (a small
 * body arrives with the headers, and by the first microtask Node's parser has pushed it, though
 * `req.complete` is set only later). "All of it": Content-Length bytes, which the parser never
 * exceeds. undefined when some is still to come, or the length is not declared (chunked): read it
 * with readBodyText. Declared over `maxBytes`: throws `bodyTooLarge()`, the body left unread.
 * Decodes as readBodyText does (invalid UTF-8 throws a 400), and lets the stream flow to its end as
 * readBodyText's listeners do.
 */
export function bufferedBodyText(req: IncomingMessage, maxBytes: number): string | undefined {
  const declared = Number(headerOf(req, "content-length") ?? Number.NaN);
  if (!Number.isInteger(declared) || req.readableFlowing !== null || req.readableEnded) return undefined;
  if (declared > maxBytes) throw bodyTooLarge();
  if (req.readableLength !== declared) return undefined;
  // Paused: read() hands over everything buffered at once (null when nothing is).
  const data = declared === 0 ? null : (req.read() as Buffer | null);
  req.resume();
  return data === null ? "" : decodeUtf8Body(data);
}

/** Requests with `Expect: 100-continue` whose `100 Continue` is held until they are admitted (httpServer.ts). */
const continueHeld = new WeakSet<IncomingMessage>();

/** Marks a request whose `100 Continue` waits for its admission (the server's `checkContinue`). */
export function holdContinue(req: IncomingMessage): void {
  continueHeld.add(req);
}

/** Whether the request still waits for its `100 Continue` (its body will not come before it). */
export function continuePending(req: IncomingMessage): boolean {
  return continueHeld.has(req);
}

/** Sends the held `100 Continue` (once; nothing when none is held): the request was admitted. */
export function sendContinue(req: IncomingMessage, res: ServerResponse): void {
  if (!continueHeld.delete(req)) return;
  if (!res.headersSent && !res.writableEnded) res.writeContinue();
}

/** `extra`: headers set over the reply's own (the admission's rate-limit headers), merged in the one copy made here. */
export function writeReply(
  req: IncomingMessage,
  res: ServerResponse,
  reply: Reply,
  extra?: Record<string, string>,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const secure = HTTPS_FORWARDED.test(headerOf(req, "x-forwarded-proto") ?? "");
  const headers: Record<string, string | number> = {
    ...(secure ? SECURE_HEADERS : SECURITY_HEADERS),
    ...reply.headers,
    ...extra,
  };
  // Answered without `100 Continue`: the client may send the body yet, or not; the connection
  // cannot be reused (contract: an answer before the body was read drains it or closes).
  if (continueHeld.delete(req)) headers.connection = "close";
  const body = reply.body ?? "";
  if (reply.status !== 204 && reply.status !== 304) headers["content-length"] = Buffer.byteLength(body);
  res.writeHead(reply.status, headers);
  res.end(reply.status === 204 || reply.status === 304 ? undefined : body);
}

const MALFORMED_REQUEST = JSON.stringify({
  type: "about:blank",
  title: "Bad Request",
  status: 400,
  detail: "The request is not valid HTTP/1.1 (request line or headers).",
});
const HEADERS_TOO_LARGE = JSON.stringify({
  type: "about:blank",
  title: "Request Header Fields Too Large",
  status: 431,
  detail: "The request line and headers must be at most 16 KiB.",
});

/**
 * The server's `clientError` handler: a request Node's parser refuses (a control character in a
 * header, a malformed request line; 431 for a head over 16 KiB) gets a problem+json answer instead
 * of Node's bare one, then the
 * connection is closed. A connection reset by the client is simply destroyed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: import("node:stream").Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const body = tooLarge ? HEADERS_TOO_LARGE : MALFORMED_REQUEST;
  const headers = Object.entries({
    ...SECURITY_HEADERS,
    "content-type": "application/problem+json",
    "cache-control": "no-store",
    "content-length": String(Buffer.byteLength(body)),
    connection: "close",
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  // An answer to HEAD has no body (a client would read one as garbage after the answer).
  const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString("latin1") === "HEAD ";
  socket.end(
    `HTTP/1.1 ${tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\n${headers}\r\n${head ? "" : body}`,
  );
}

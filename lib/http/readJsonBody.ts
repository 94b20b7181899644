/**
 * Reads a request body as JSON under the contract's 64 KiB limit, from a web `Request` (the admin
 * API) or from any stream of byte chunks (the data plane's Node request).
 * Throws AppError: 413 over the limit, 400 for an empty or malformed body. The content type is not
 * checked: the body must parse as JSON whatever it claims (curl -d sends a form type by default).
 */
import { AppError } from "./errors";

export const MAX_BODY_BYTES = 64 * 1024;

export async function readJsonBody(request: Request): Promise<unknown> {
  // Node's web streams are async iterable; TypeScript's DOM types do not say so.
  return readJsonStream(
    request.headers.get("content-length"),
    request.body as unknown as AsyncIterable<Uint8Array> | null,
  );
}

/** `declaredLength`: the Content-Length header, if any; `body`: the chunks (null: no body). */
export async function readJsonStream(
  declaredLength: string | null | undefined,
  body: AsyncIterable<Uint8Array> | null,
): Promise<unknown> {
  return readJsonWith(declaredLength, () => readLimited(body));
}

/** The payload_too_large error a body over MAX_BODY_BYTES is answered with. */
export const bodyTooLarge = (): AppError =>
  new AppError("payload_too_large", `The body must be at most ${MAX_BODY_BYTES} bytes.`);

/**
 * As readJsonStream, with the body read by `readText`: its text, at most MAX_BODY_BYTES (throwing
 * `bodyTooLarge()` beyond), whatever content-length claimed (the data plane reads Node's request
 * with events: lib/dataplane/nodeIo.ts readBodyText).
 */
export async function readJsonWith(
  declaredLength: string | null | undefined,
  readText: (maxBytes: number) => Promise<string>,
): Promise<unknown> {
  refuseDeclaredLength(declaredLength);
  return parseJsonText(await readText(MAX_BODY_BYTES));
}

/** Throws `bodyTooLarge()` when the Content-Length header (if any) declares more than MAX_BODY_BYTES. */
export function refuseDeclaredLength(declaredLength: string | null | undefined): void {
  if (Number(declaredLength ?? "0") > MAX_BODY_BYTES) throw bodyTooLarge();
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A body's bytes as text: 400 when they are not valid UTF-8 (JSON must be: RFC 8259 8.1). A lenient
 * decoder turned every invalid sequence into U+FFFD, so `{"identifier": "\xff"}` and
 * `{"identifier": "\xfe"}` shared one counter of POST /api/v1/check, as lone surrogates did.
 */
export function decodeUtf8Body(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new AppError("bad_request", "The body is not valid UTF-8.");
  }
}

/** A body's text as JSON: 400 when it is empty (or blank) or not valid JSON. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === "") throw new AppError("bad_request", "The body must be a JSON document; it is empty.");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("bad_request", "The body is not valid JSON.");
  }
}

/** Reads at most MAX_BODY_BYTES, whatever content-length claimed (it may be absent or wrong). */
async function readLimited(body: AsyncIterable<Uint8Array> | null): Promise<string> {
  if (!body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop early (throw) cancels a web stream and destroys a Node stream.
  for await (const value of body) {
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) throw bodyTooLarge();
    chunks.push(value);
  }
  return decodeUtf8Body(Buffer.concat(chunks));
}

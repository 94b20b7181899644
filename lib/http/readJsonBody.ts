/**
 * Reads a request body as JSON under the contract's 64 KiB limit.
 * Throws AppError: 413 over the limit, 400 for an empty or malformed body. The content type is not
 * checked: the body must parse as JSON whatever it claims (curl -d sends a form type by default).
 */
import { AppError } from "./errors";

export const MAX_BODY_BYTES = 64 * 1024;

export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new AppError("payload_too_large", `The body must be at most ${MAX_BODY_BYTES} bytes.`);
  const text = await readLimited(request);
  if (text.trim() === "") throw new AppError("bad_request", "The body must be a JSON document; it is empty.");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("bad_request", "The body is not valid JSON.");
  }
}

/** Reads at most MAX_BODY_BYTES, whatever content-length claimed (it may be absent or wrong). */
async function readLimited(request: Request): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new AppError("payload_too_large", `The body must be at most ${MAX_BODY_BYTES} bytes.`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

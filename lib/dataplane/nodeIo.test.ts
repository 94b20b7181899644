import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { AppError } from "../http/errors";
import { readBodyText } from "./nodeIo";

/** A request body as Node's IncomingMessage streams it (the reader uses only the Readable side). */
const body = (chunks: Buffer[]): IncomingMessage =>
  Readable.from(chunks, { objectMode: false }) as unknown as IncomingMessage;

describe("readBodyText", () => {
  it("joins the chunks and decodes UTF-8, even a character split between two chunks", async () => {
    const text = Buffer.from('{"identifier":"zoë"}');
    const split = text.indexOf(0xc3) + 1;
    await expect(readBodyText(body([text.subarray(0, split), text.subarray(split)]), 1_000)).resolves.toBe(
      '{"identifier":"zoë"}',
    );
  });

  it("an empty body is the empty string", async () => {
    await expect(readBodyText(body([]), 1_000)).resolves.toBe("");
  });

  it("a body over the limit is payload_too_large, whatever it declared, and the rest is left unread", async () => {
    const req = body([Buffer.alloc(600, 97), Buffer.alloc(600, 97), Buffer.alloc(600, 97)]);
    const error = await readBodyText(req, 1_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("payload_too_large");
    expect(req.destroyed).toBe(false);
  });

  it("a stream that fails rejects with its error", async () => {
    const req = new Readable({
      read() {
        this.destroy(new Error("reset"));
      },
    }) as unknown as IncomingMessage;
    await expect(readBodyText(req, 1_000)).rejects.toThrow("reset");
  });
});

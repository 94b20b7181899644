import { describe, expect, it } from "vitest";
import { AppError } from "./errors";
import { decodeUtf8Body, readJsonStream } from "./readJsonBody";

async function* chunks(...parts: Uint8Array[]) {
  for (const part of parts) yield part;
}

describe("a body that is not valid UTF-8", () => {
  it("is a 400, never decoded to U+FFFD (two such identifiers or names would be one)", async () => {
    for (const bad of [[0xff], [0xfe], [0xc0, 0xae], [0xed, 0xa0, 0x80]]) {
      const body = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from(bad), Buffer.from('"}')]);
      expect(() => decodeUtf8Body(body)).toThrow(AppError);
      await expect(readJsonStream(null, chunks(body))).rejects.toMatchObject({
        status: 400,
        message: "The body is not valid UTF-8.",
      });
    }
  });

  it("valid UTF-8 (a character split between chunks, a literal U+FFFD) reads as it is", async () => {
    const text = '{"name":"café \uFFFD"}';
    const bytes = Buffer.from(text);
    await expect(readJsonStream(null, chunks(bytes.subarray(0, 13), bytes.subarray(13)))).resolves.toEqual({
      name: "café \uFFFD",
    });
  });
});

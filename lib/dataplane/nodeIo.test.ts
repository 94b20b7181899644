import { createServer, type IncomingMessage } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { once } from "node:events";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { AppError } from "../http/errors";
import { bufferedBodyText, readBodyText } from "./nodeIo";

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

/** A request with these headers whose parser has pushed `chunks` (`ended`: and the end of the body). */
function buffered(headers: Record<string, string>, chunks: Buffer[], ended = false): IncomingMessage {
  const req = new Readable({ read() {} });
  for (const chunk of chunks) req.push(chunk);
  if (ended) req.push(null);
  return Object.assign(req, { headers }) as unknown as IncomingMessage;
}

describe("bufferedBodyText", () => {
  it("reads a body whose declared length is buffered at once: the chunks joined and decoded as readBodyText does", () => {
    const text = Buffer.from('{"identifier":"zoë"}');
    const split = text.indexOf(0xc3) + 1;
    const chunks = [text.subarray(0, split), text.subarray(split)];
    expect(bufferedBodyText(buffered({ "content-length": String(text.length) }, chunks), 1_000)).toBe(
      '{"identifier":"zoë"}',
    );
    expect(bufferedBodyText(buffered({ "content-length": "0" }, [], true), 1_000)).toBe("");
  });

  it("is undefined while part of the body is to come, or with no declared length, reading nothing", () => {
    const partial = buffered({ "content-length": "10" }, [Buffer.from('{"a"')]);
    expect(bufferedBodyText(partial, 1_000)).toBe(undefined);
    expect(partial.readableLength).toBe(4);
    const chunked = buffered({ "transfer-encoding": "chunked" }, [Buffer.from("{}")], true);
    expect(bufferedBodyText(chunked, 1_000)).toBe(undefined);
    expect(chunked.readableLength).toBe(2);
  });

  it("declared over the limit is payload_too_large, and the body is left unread", () => {
    const req = buffered({ "content-length": "1200" }, [Buffer.alloc(600, 97), Buffer.alloc(600, 97)]);
    let error: unknown;
    try {
      bufferedBodyText(req, 1_000);
    } catch (e) {
      error = e;
    }
    expect((error as AppError).code).toBe("payload_too_large");
    expect(req.readableLength).toBe(1_200);
  });

  /** What a node:http handler sees a tick after the request event, the request sent in `parts`. */
  async function seenByHandler(parts: string[]): Promise<{ now: string | undefined; read: string }> {
    let seen!: (value: { now: string | undefined; read: string }) => void;
    const result = new Promise<{ now: string | undefined; read: string }>((resolve) => (seen = resolve));
    const server = createServer((req, res) => {
      // As admission calls it: after a microtask (an await), before the next read.
      void Promise.resolve().then(async () => {
        const now = bufferedBodyText(req, 1_000);
        const read = now ?? (await readBodyText(req, 1_000));
        // The stream still reaches its end, as with readBodyText's listeners.
        if (!req.readableEnded) await once(req, "end");
        seen({ now, read });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
    try {
      for (const part of parts) {
        socket.write(part);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return await result;
    } finally {
      socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  const head = "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 16\r\n\r\n";
  it("over node:http: a body sent with the headers is there at once", async () => {
    await expect(seenByHandler([head + '{"rule":"per-u"}'])).resolves.toEqual({
      now: '{"rule":"per-u"}',
      read: '{"rule":"per-u"}',
    });
  });

  it("over node:http: a body sent after the headers is left to readBodyText", async () => {
    await expect(seenByHandler([head, '{"rule":"per-u"}'])).resolves.toEqual({
      now: undefined,
      read: '{"rule":"per-u"}',
    });
  });
});

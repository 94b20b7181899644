/**
 * When the change subscription says it is subscribed, against a stand-in Redis on a loopback port
 * that speaks just enough RESP and holds its SUBSCRIBE reply until the test releases it: the
 * caller's "reload everything" must not run before change notices can arrive.
 */
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { createRedisClient, type RedisClient } from "../../redis/connect";
import { subscribeChanges, type ChangeSubscription } from "./changeBus";

const bulk = (s: string) => `$${Buffer.byteLength(s)}\r\n${s}\r\n`;

/** The commands (arrays of bulk strings) complete in `buffer`, and the unparsed rest. */
function parseCommands(buffer: string): { commands: string[][]; rest: string } {
  const commands: string[][] = [];
  let at = 0;
  for (;;) {
    const head = /^\*(\d+)\r\n/.exec(buffer.slice(at));
    if (!head) break;
    let pos = at + head[0].length;
    const args: string[] = [];
    for (let i = 0; i < Number(head[1]); i++) {
      const len = /^\$(\d+)\r\n/.exec(buffer.slice(pos));
      if (!len || buffer.length < pos + len[0].length + Number(len[1]) + 2) return { commands, rest: buffer.slice(at) };
      pos += len[0].length;
      args.push(buffer.slice(pos, pos + Number(len[1])));
      pos += Number(len[1]) + 2;
    }
    commands.push(args);
    at = pos;
  }
  return { commands, rest: buffer.slice(at) };
}

/**
 * A Redis stand-in whose SUBSCRIBE replies wait for `confirm()`; as a real Redis answers a
 * connection's commands in order, every reply after a held one waits with it.
 */
async function heldSubscribeRedis() {
  const held: (() => void)[] = [];
  let seen!: () => void;
  const subscribeSeen = new Promise<void>((resolve) => (seen = resolve));
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.setEncoding("latin1");
    let buffer = "";
    socket.on("error", () => undefined);
    socket.on("data", (chunk: string) => {
      const parsed = parseCommands(buffer + chunk);
      buffer = parsed.rest;
      for (const [name = "", ...args] of parsed.commands) {
        const command = name.toLowerCase();
        const reply = (text: string) => (held.length > 0 ? held.push(() => socket.write(text)) : socket.write(text));
        if (command === "info") reply(bulk("# Server\r\nloading:0\r\n"));
        else if (command === "subscribe") {
          held.push(() => socket.write(`*3\r\n${bulk("subscribe")}${bulk(args[0]!)}:1\r\n`));
          seen();
        } else if (command === "ping") reply(`*2\r\n${bulk("pong")}${bulk("")}`);
        else reply("+OK\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    subscribeSeen,
    confirm: () => held.splice(0).forEach((reply) => reply()),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it("reports the subscription only after Redis confirmed the SUBSCRIBE, not when the connection is ready", async () => {
  const fake = await heldSubscribeRedis();
  cleanups.push(() => fake.close());
  const redis: RedisClient = createRedisClient({
    url: fake.url,
    cluster: false,
    timeoutMs: 500,
    autoPipelining: false,
  });
  cleanups.push(() => redis.disconnect());
  let subscribed = 0;
  const subscription: ChangeSubscription = subscribeChanges(redis, "bus:", {
    onChange: () => undefined,
    onSubscribed: () => subscribed++,
  });
  cleanups.push(() => subscription.close());

  await fake.subscribeSeen;
  // Give a report that does not wait for the reply every chance to happen (ioredis says "ready"
  // on the next tick after sending the SUBSCRIBE).
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(subscribed).toBe(0);

  fake.confirm();
  const deadline = Date.now() + 5_000;
  while (subscribed === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(subscribed).toBe(1);
});

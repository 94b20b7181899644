/**
 * A TCP proxy on a free 127.0.0.1 port between a client and a Redis, breaking the link the ways a
 * network does:
 * - `cutAfter(bytes)`: forward only `bytes` more bytes from clients, then drop that connection (a
 *   writer dying, or its link breaking, half-way through a pipeline); later connections pass whole;
 * - `blackhole()`: every connection, open or new, goes silent: bytes are swallowed both ways and
 *   nothing is closed (a partition, or a peer gone without a FIN or RST);
 * - `heal()`: new connections work again; the ones that went silent stay silent (their path is
 *   gone for good, as after a failover behind a virtual IP), so only a client that reconnects
 *   gets through.
 * `close()` destroys every connection and stops listening.
 */
import { connect, createServer, type Socket } from "node:net";

export interface FaultyProxy {
  readonly port: number;
  readonly url: string;
  cutAfter(bytes: number): void;
  blackhole(): void;
  heal(): void;
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  upstream: Socket;
  silent: boolean;
}

export async function startFaultyProxy(targetPort: number): Promise<FaultyProxy> {
  let budget: number | null = null;
  let silentForNew = false;
  const links = new Set<Link>();
  const server = createServer((client) => {
    const upstream = connect({ host: "127.0.0.1", port: targetPort });
    const link: Link = { client, upstream, silent: silentForNew };
    links.add(link);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on("error", () => undefined);
      socket.on("close", () => {
        cut();
        links.delete(link);
      });
    }
    upstream.on("data", (chunk: Buffer) => {
      if (!link.silent) client.write(chunk);
    });
    client.on("data", (chunk: Buffer) => {
      if (link.silent) return;
      if (budget === null) {
        upstream.write(chunk);
        return;
      }
      const passed = chunk.subarray(0, budget);
      budget -= passed.length;
      if (budget > 0) {
        upstream.write(passed);
        return;
      }
      budget = null;
      // Let the bytes that pass reach the target before the connection goes.
      client.pause();
      upstream.write(passed, () => setTimeout(cut, 50));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("faultyProxy: no TCP address");
  return {
    port: address.port,
    url: `redis://127.0.0.1:${address.port}`,
    cutAfter(bytes) {
      budget = bytes;
    },
    blackhole() {
      silentForNew = true;
      for (const link of links) link.silent = true;
    },
    heal() {
      silentForNew = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const link of links) {
          link.client.destroy();
          link.upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

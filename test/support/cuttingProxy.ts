/**
 * A TCP proxy on a free 127.0.0.1 port that can cut a connection in the middle of what a client
 * sends: a writer dying (or its link breaking) half-way through a pipeline, reproduced exactly.
 * `cutAfter(bytes)`: from now on, forward only `bytes` more bytes from clients to the target, then
 * destroy both sides of that connection (later connections pass whole again). `close()` stops it.
 */
import { connect, createServer, type Socket } from "node:net";

export interface CuttingProxy {
  readonly port: number;
  readonly url: string;
  cutAfter(bytes: number): void;
  close(): Promise<void>;
}

export async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  let budget: number | null = null;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect({ host: "127.0.0.1", port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    client.on("data", (chunk: Buffer) => {
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
      upstream.write(passed, () => setTimeout(cut, 50));
      client.pause();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("cuttingProxy: no TCP address");
  return {
    port: address.port,
    url: `redis://127.0.0.1:${address.port}`,
    cutAfter(bytes) {
      budget = bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

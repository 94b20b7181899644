/**
 * Loopback port helpers for tests. `freePort()` asks the kernel for a port that is free on 127.0.0.1
 * right now (listen on 0, read it, close); `freePorts(n)` returns n distinct ones (all held open
 * together before closing). Nothing is reserved afterwards: bind the port soon and be ready to retry.
 * `isPortListening(port)` tells whether something accepts TCP connections on 127.0.0.1:port.
 */
import { connect, createServer, type Server } from "node:net";

const HOST = "127.0.0.1";

function listenOnAnyPort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, HOST, () => resolve(server));
  });
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("freePort: no TCP address");
  return address.port;
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listenOnAnyPort());
    return servers.map(portOf);
  } finally {
    await Promise.all(servers.map(close));
  }
}

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error("freePort: no port");
  return port;
}

/** True when a TCP connection to 127.0.0.1:port is accepted within `timeoutMs`. */
export function isPortListening(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: HOST, port });
    const done = (listening: boolean) => {
      socket.destroy();
      resolve(listening);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

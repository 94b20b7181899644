/**
 * The control plane's Unix socket under `npm start` (`npm run build` first): a file in a directory
 * of mode 0700 (not an abstract socket, which any local user finds in /proc/net/unix and connects
 * to), removed when the server stops; and a request that comes in on it without the server's peer
 * secret is an unknown client, whatever X-Forwarded-For it sends. Linux only (/proc).
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { SluiceServer } from "@/test/support/sluiceServer";
import { oneServerForSuite } from "@/test/support/twoServers";

const suite = oneServerForSuite("http-ctl-socket", { SLUICE_TRUST_PROXY: "1", SLUICE_BEARER_FAILURES_PER_IP: "2" });
let server: SluiceServer;

beforeAll(() => {
  ({ server } = suite);
});

/** The Unix socket paths the process `pid` holds (from /proc/net/unix, by the inodes of its fds); `@` marks an abstract one. */
function unixSocketPaths(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  return readFileSync("/proc/net/unix", "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 8 && inodes.has(cols[6]!))
    .map((cols) => cols[7]!);
}

function getOnSocket(socketPath: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ socketPath, path: "/api/admin/tenants", headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject);
  });
}

describe("the control plane's socket", () => {
  it("is a file in a 0700 directory of its own, never an abstract socket; a request on it without the peer secret is an unknown client", async () => {
    const paths = unixSocketPaths(server.pid).filter((p) => p.includes("sluice-control"));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((p) => p.startsWith("@"))).toEqual([]);
    const socketPath = paths[0]!;
    const dir = statSync(path.dirname(socketPath));
    expect(dir.mode & 0o777).toBe(0o700);
    expect(dir.uid).toBe(process.getuid!());

    // A local process of this user that connects itself: each forged X-Forwarded-For is not a new
    // client, so its wrong admin tokens are limited together (2 per address here).
    const statuses = [];
    for (const ip of ["203.0.113.1", "203.0.113.2", "203.0.113.3"])
      statuses.push(await getOnSocket(socketPath, { authorization: "Bearer wrong", "x-forwarded-for": ip }));
    expect(statuses).toEqual([401, 401, 429]);
    // Clients through the server are still told apart (one trusted hop).
    const viaServer = await fetch(`${server.url}/api/admin/tenants`, {
      headers: { authorization: "Bearer wrong", "x-forwarded-for": "203.0.113.9" },
    });
    expect(viaServer.status).toBe(401);

    await server.stop();
    expect(existsSync(path.dirname(socketPath))).toBe(false);
  });
});

/**
 * Refuses to run the end-to-end suite against anything but local services: the specs create
 * and delete data, and must never touch a shared or production database or Redis.
 */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

const DEFAULTS: Record<string, string> = {
  DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/sluice",
  REDIS_URL: "redis://127.0.0.1:6379",
};

function hostsOf(value: string): string[] {
  // REDIS_URL may list several cluster nodes, comma-separated.
  return value.split(",").map((part) => {
    const trimmed = part.trim();
    const url = new URL(trimmed.includes("://") ? trimmed : `redis://${trimmed}`);
    return url.hostname;
  });
}

export default function globalSetup(): void {
  for (const name of Object.keys(DEFAULTS)) {
    const value = process.env[name] || DEFAULTS[name]!;
    let hosts: string[];
    try {
      hosts = hostsOf(value);
    } catch {
      throw new Error(`e2e: ${name} is not a valid URL; refusing to run`);
    }
    const remote = hosts.filter((host) => !LOCAL_HOSTS.has(host));
    if (remote.length > 0) {
      throw new Error(
        `e2e: ${name} points at ${remote.join(", ")}; the suite only runs against localhost or 127.0.0.1`,
      );
    }
  }
}

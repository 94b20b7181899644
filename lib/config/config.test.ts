import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "./config";

const saved = { email: process.env.SLUICE_ADMIN_EMAIL, password: process.env.SLUICE_ADMIN_PASSWORD };

function withAdmin(email: string | undefined, password: string | undefined) {
  if (email === undefined) delete process.env.SLUICE_ADMIN_EMAIL;
  else process.env.SLUICE_ADMIN_EMAIL = email;
  if (password === undefined) delete process.env.SLUICE_ADMIN_PASSWORD;
  else process.env.SLUICE_ADMIN_PASSWORD = password;
}

afterEach(() => withAdmin(saved.email, saved.password));

describe("config: the first admin (SLUICE_ADMIN_EMAIL, SLUICE_ADMIN_PASSWORD)", () => {
  it("neither set: none", () => {
    withAdmin(undefined, undefined);
    expect(readConfig().firstAdmin).toBeUndefined();
    withAdmin("", "");
    expect(readConfig().firstAdmin).toBeUndefined();
  });

  it("both set: the email normalized like the admin API's, the password as given", () => {
    withAdmin("  Admin@Example.com ", " a long password ");
    expect(readConfig().firstAdmin).toEqual({ email: "admin@example.com", password: " a long password " });
  });

  it.each([
    ["only the email", "admin@example.com", undefined, /SLUICE_ADMIN_PASSWORD must be set/],
    ["only the password", undefined, "a long password", /SLUICE_ADMIN_EMAIL must be set/],
    ["a malformed email", "admin", "a long password", /SLUICE_ADMIN_EMAIL: email must be an email address/],
    [
      "a short password",
      "admin@example.com",
      "short",
      /SLUICE_ADMIN_PASSWORD: password must be at least 12 characters/,
    ],
  ])("%s: refused with the variable's name", (_, email, password, message) => {
    withAdmin(email, password);
    expect(() => readConfig()).toThrow(message);
  });

  it("never puts the password in an error message", () => {
    withAdmin("admin", "my secret password");
    expect(() => readConfig()).toThrow(/^(?!.*my secret password)/);
  });
});

describe("config: Redis Sentinel (SLUICE_REDIS_SENTINELS, SLUICE_REDIS_SENTINEL_NAME, SLUICE_REDIS_SENTINEL_PASSWORD)", () => {
  const names = [
    "SLUICE_REDIS_SENTINELS",
    "SLUICE_REDIS_SENTINEL_NAME",
    "SLUICE_REDIS_SENTINEL_PASSWORD",
    "SLUICE_REDIS_CLUSTER",
    "REDIS_URL",
    "SLUICE_REDIS_TLS_SERVERNAME",
  ] as const;
  const before = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  const withEnv = (env: Partial<Record<(typeof names)[number], string>>) => {
    for (const n of names) {
      if (env[n] === undefined) delete process.env[n];
      else process.env[n] = env[n];
    }
  };
  afterEach(() => withEnv(before as Record<string, string>));

  it("unset or blank: no sentinel", () => {
    withEnv({});
    expect(readConfig().redisSentinel).toBeUndefined();
    withEnv({ SLUICE_REDIS_SENTINELS: "  " });
    expect(readConfig().redisSentinel).toBeUndefined();
  });

  it("a list: the sentinels (port 26379 by default) and the master name mymaster", () => {
    withEnv({ SLUICE_REDIS_SENTINELS: "10.0.0.1:26380, sentinel-b" });
    expect(readConfig().redisSentinel).toEqual({
      sentinels: [
        { host: "10.0.0.1", port: 26380 },
        { host: "sentinel-b", port: 26379 },
      ],
      name: "mymaster",
    });
  });

  it("a master name and a sentinel password", () => {
    withEnv({
      SLUICE_REDIS_SENTINELS: "s:1",
      SLUICE_REDIS_SENTINEL_NAME: "limits",
      SLUICE_REDIS_SENTINEL_PASSWORD: "pw",
    });
    expect(readConfig().redisSentinel).toEqual({ sentinels: [{ host: "s", port: 1 }], name: "limits", password: "pw" });
  });

  it("TLS (lib/config/redisTls.ts): rediss:// sentinels and data nodes, with the SNI name for all", () => {
    withEnv({
      SLUICE_REDIS_SENTINELS: "rediss://s1:26379,rediss://s2",
      REDIS_URL: "rediss://:pw@unused/0",
      SLUICE_REDIS_TLS_SERVERNAME: "redis.example.com",
    });
    const c = readConfig();
    expect(c.redisSentinel).toMatchObject({
      sentinels: [
        { host: "s1", port: 26379 },
        { host: "s2", port: 26379 },
      ],
      tls: true,
    });
    expect(c.redisTls).toEqual({ servername: "redis.example.com" });
    withEnv({ REDIS_URL: "redis://127.0.0.1:6379", SLUICE_REDIS_TLS_SERVERNAME: "redis.example.com" });
    expect(() => readConfig()).toThrow(/SLUICE_REDIS_TLS_SERVERNAME set, but no Redis connection uses TLS/);
  });

  it.each([
    ["a malformed entry", { SLUICE_REDIS_SENTINELS: "s:99999" }, /SLUICE_REDIS_SENTINELS must list host:port entries/],
    [
      "a bad master name",
      { SLUICE_REDIS_SENTINELS: "s:1", SLUICE_REDIS_SENTINEL_NAME: "my master" },
      /SLUICE_REDIS_SENTINEL_NAME must be a master name/,
    ],
    [
      "with SLUICE_REDIS_CLUSTER",
      { SLUICE_REDIS_SENTINELS: "s:1", SLUICE_REDIS_CLUSTER: "1" },
      /cannot be used with a Redis Cluster/,
    ],
    [
      "with several nodes in REDIS_URL",
      { SLUICE_REDIS_SENTINELS: "s:1", REDIS_URL: "redis://a:1,redis://b:2" },
      /cannot be used with a Redis Cluster/,
    ],
  ])("%s: refused with the variable's name", (_, env, message) => {
    withEnv(env);
    expect(() => readConfig()).toThrow(message);
  });
});

describe("config: SLUICE_ADMIN_TOKEN and SLUICE_METRICS_TOKEN", () => {
  const savedToken = { admin: process.env.SLUICE_ADMIN_TOKEN, metrics: process.env.SLUICE_METRICS_TOKEN };
  const set = (name: string, value: string | undefined) =>
    value === undefined ? delete process.env[name] : (process.env[name] = value);
  afterEach(() => {
    set("SLUICE_ADMIN_TOKEN", savedToken.admin);
    set("SLUICE_METRICS_TOKEN", savedToken.metrics);
  });

  it("refuses an admin token under 32 characters, saying how long it must be, without echoing it", () => {
    set("SLUICE_ADMIN_TOKEN", "s3cret-but-short-31-characters!");
    expect(() => readConfig()).toThrow("SLUICE_ADMIN_TOKEN must be at least 32 characters (it has 31)");
    expect(() => readConfig()).toThrow(/^(?!.*s3cret)/);
  });

  it("takes an admin token of 32 characters or more, and none at all", () => {
    set("SLUICE_ADMIN_TOKEN", "x".repeat(32));
    expect(readConfig().adminToken).toBe("x".repeat(32));
    set("SLUICE_ADMIN_TOKEN", undefined);
    expect(readConfig().adminToken).toBeUndefined();
  });

  it("reads SLUICE_METRICS_TOKEN (at least 16 characters)", () => {
    set("SLUICE_METRICS_TOKEN", "m".repeat(16));
    expect(readConfig().metricsToken).toBe("m".repeat(16));
    set("SLUICE_METRICS_TOKEN", "short");
    expect(() => readConfig()).toThrow("SLUICE_METRICS_TOKEN must be at least 16 characters (it has 5)");
  });
});

describe("config: Envoy's rate limit service (SLUICE_GRPC_PORT, SLUICE_GRPC_HOST)", () => {
  const savedGrpc = { port: process.env.SLUICE_GRPC_PORT, host: process.env.SLUICE_GRPC_HOST };
  function withGrpc(port: string | undefined, host: string | undefined) {
    if (port === undefined) delete process.env.SLUICE_GRPC_PORT;
    else process.env.SLUICE_GRPC_PORT = port;
    if (host === undefined) delete process.env.SLUICE_GRPC_HOST;
    else process.env.SLUICE_GRPC_HOST = host;
  }
  afterEach(() => withGrpc(savedGrpc.port, savedGrpc.host));

  it("off without a port; on 127.0.0.1 by default with one", () => {
    withGrpc(undefined, "0.0.0.0");
    expect(readConfig().grpc).toBeUndefined();
    withGrpc("8081", undefined);
    expect(readConfig().grpc).toEqual({ host: "127.0.0.1", port: 8081 });
    withGrpc("8081", "::");
    expect(readConfig().grpc).toEqual({ host: "::", port: 8081 });
  });

  it("refuses a port out of range and a host that is no address or name", () => {
    withGrpc("70000", undefined);
    expect(() => readConfig()).toThrow(/SLUICE_GRPC_PORT must be an integer from 1 to 65535/);
    withGrpc("abc", undefined);
    expect(() => readConfig()).toThrow(/SLUICE_GRPC_PORT/);
    withGrpc("8081", "a host");
    expect(() => readConfig()).toThrow(/SLUICE_GRPC_HOST/);
  });
});

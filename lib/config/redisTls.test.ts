import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listUsesTls, redisTlsFrom } from "./redisTls";

const dir = mkdtempSync(path.join(tmpdir(), "sluice-redis-tls-config-"));
const ca = path.join(dir, "ca.pem");
writeFileSync(ca, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("listUsesTls", () => {
  it("is true for rediss:// entries, for one node and for a Cluster's or Sentinel's list", () => {
    expect(listUsesTls("rediss://:pw@redis.example.com:6380/0", "REDIS_URL")).toBe(true);
    expect(listUsesTls("rediss://10.0.0.1:7000,rediss://10.0.0.2:7000", "REDIS_URL")).toBe(true);
    expect(listUsesTls("redis://127.0.0.1:6379", "REDIS_URL")).toBe(false);
    expect(listUsesTls("s1:26379,s2:26379", "SLUICE_REDIS_SENTINELS")).toBe(false);
  });

  it("refuses a list that mixes TLS and plain entries, or another scheme", () => {
    expect(() => listUsesTls("rediss://a:1,redis://b:2", "REDIS_URL")).toThrow(
      /REDIS_URL mixes redis:\/\/ and rediss:\/\//,
    );
    expect(() => listUsesTls("http://a:1", "SLUICE_REDIS_SENTINELS")).toThrow(/SLUICE_REDIS_SENTINELS entries must be/);
  });
});

describe("redisTlsFrom", () => {
  it("reads the CA file and the SNI name", () => {
    expect(
      redisTlsFrom({ SLUICE_REDIS_TLS_CA_FILE: ca, SLUICE_REDIS_TLS_SERVERNAME: "redis.example.com" }, true),
    ).toEqual({
      ca: expect.stringContaining("BEGIN CERTIFICATE"),
      servername: "redis.example.com",
    });
    expect(redisTlsFrom({}, true)).toEqual({});
  });

  it("names the variable of a file it cannot read", () => {
    expect(() => redisTlsFrom({ SLUICE_REDIS_TLS_CA_FILE: path.join(dir, "missing.pem") }, true)).toThrow(
      /SLUICE_REDIS_TLS_CA_FILE: cannot read/,
    );
  });

  it("wants a client certificate and its key together, and a host name as SNI", () => {
    expect(() => redisTlsFrom({ SLUICE_REDIS_TLS_CERT_FILE: ca }, true)).toThrow(/go together/);
    expect(() => redisTlsFrom({ SLUICE_REDIS_TLS_SERVERNAME: "not a name" }, true)).toThrow(/must be a host name/);
  });

  it("refuses TLS settings when no connection uses TLS (a plain redis:// URL would silently ignore them)", () => {
    expect(() => redisTlsFrom({ SLUICE_REDIS_TLS_CA_FILE: ca }, false)).toThrow(
      /SLUICE_REDIS_TLS_CA_FILE set, but no Redis connection uses TLS/,
    );
    expect(redisTlsFrom({}, false)).toEqual({});
  });
});

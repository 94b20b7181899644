/**
 * Certificates for TLS tests of Redis, made by the `openssl` CLI into a temp directory:
 * `makeRedisTlsFiles()` gives a CA, a server certificate for the name `redis.test` only (no IP
 * address: a client reaching 127.0.0.1 must send that name, SLUICE_REDIS_TLS_SERVERNAME, or fail
 * verification), a client certificate signed by the CA (redis-server asks for one by default,
 * `tls-auth-clients yes`), and a second, unrelated CA (trusting it must fail). `remove()` deletes
 * the directory. `tlsServerArgs(files, tlsPort)` are the redis-server arguments that add a TLS
 * port with them; the plain port stays, for the test harness's own probes.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
export const TLS_SERVER_NAME = "redis.test";

export interface RedisTlsFiles {
  dir: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  otherCa: string;
  remove(): Promise<void>;
}

async function openssl(dir: string, args: string[]): Promise<void> {
  await run("openssl", args, { cwd: dir, timeout: 30_000 });
}

/** A key and a certificate for `subject` signed by ca.crt/ca.key, with `extensions` (an -extfile). */
async function signed(dir: string, name: string, subject: string, extensions: string): Promise<void> {
  await openssl(dir, [
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    `${name}.key`,
    "-out",
    `${name}.csr`,
    "-subj",
    subject,
  ]);
  await writeFile(path.join(dir, `${name}.ext`), extensions);
  await openssl(dir, [
    "x509",
    "-req",
    "-in",
    `${name}.csr`,
    "-CA",
    "ca.crt",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    `${name}.crt`,
    "-days",
    "2",
    "-extfile",
    `${name}.ext`,
  ]);
}

export async function makeRedisTlsFiles(): Promise<RedisTlsFiles> {
  const dir = await mkdtemp(path.join(tmpdir(), "sluice-redis-tls-"));
  try {
    const ca = (name: string, subject: string) =>
      openssl(dir, [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        `${name}.key`,
        "-out",
        `${name}.crt`,
        "-days",
        "2",
        "-subj",
        subject,
      ]);
    await ca("ca", "/CN=Sluice test CA");
    await ca("other-ca", "/CN=Another CA");
    await signed(dir, "server", `/CN=${TLS_SERVER_NAME}`, `subjectAltName=DNS:${TLS_SERVER_NAME}\n`);
    await signed(dir, "client", "/CN=sluice", "extendedKeyUsage=clientAuth\n");
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const at = (file: string) => path.join(dir, file);
  return {
    dir,
    ca: at("ca.crt"),
    serverCert: at("server.crt"),
    serverKey: at("server.key"),
    clientCert: at("client.crt"),
    clientKey: at("client.key"),
    otherCa: at("other-ca.crt"),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export function tlsServerArgs(files: RedisTlsFiles, tlsPort: number): string[] {
  return [
    "--tls-port",
    String(tlsPort),
    "--tls-cert-file",
    files.serverCert,
    "--tls-key-file",
    files.serverKey,
    "--tls-ca-cert-file",
    files.ca,
  ];
}

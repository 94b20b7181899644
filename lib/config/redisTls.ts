/**
 * TLS to Redis, for managed Redis (one node, a Cluster, or Sentinel), from the environment:
 * - the data nodes speak TLS when REDIS_URL is `rediss://` (for a Cluster: every listed node);
 * - the sentinels when SLUICE_REDIS_SENTINELS lists `rediss://host:port` entries;
 * - SLUICE_REDIS_TLS_CA_FILE: PEM file of the CA(s) to trust instead of the system's (a managed
 *   Redis's own CA); SLUICE_REDIS_TLS_CERT_FILE and SLUICE_REDIS_TLS_KEY_FILE: a client
 *   certificate, for servers that require one (both or neither);
 * - SLUICE_REDIS_TLS_SERVERNAME: the name sent as SNI and checked against every node's certificate,
 *   for nodes reached at addresses their certificate does not name (a Cluster's and Sentinel's
 *   nodes are announced by IP address); by default the host each node is reached at.
 * Certificates are always verified: there is no switch to skip it. A file that cannot be read, a
 * scheme that differs between entries of one list, or TLS settings without any TLS connection to
 * apply them to throw at start-up with the variable's name.
 */
import { readFileSync } from "node:fs";
import { parseNodeUrls } from "./nodeList";

/** What every TLS connection to Redis uses (contents, not paths). */
export interface RedisTlsSettings {
  ca?: string;
  cert?: string;
  key?: string;
  servername?: string;
}

type Env = Record<string, string | undefined>;

/** Whether a node list (REDIS_URL, SLUICE_REDIS_SENTINELS) asks for TLS; every entry must agree. */
export function listUsesTls(list: string, variable: string): boolean {
  const schemes = new Set(parseNodeUrls(list).map((url) => url.protocol));
  for (const scheme of schemes)
    if (scheme !== "redis:" && scheme !== "rediss:")
      throw new Error(`${variable} entries must be redis:// or rediss:// (TLS), got ${scheme}//`);
  if (schemes.size > 1) throw new Error(`${variable} mixes redis:// and rediss:// entries: use one for all`);
  return schemes.has("rediss:");
}

function fileFrom(env: Env, variable: string): string | undefined {
  const file = env[variable];
  if (!file) return undefined;
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`${variable}: cannot read ${file}: ${(error as Error).message}`);
  }
}

/** The TLS settings; `anyTls`: whether some connection (data nodes or sentinels) uses TLS. */
export function redisTlsFrom(env: Env, anyTls: boolean): RedisTlsSettings {
  const names = [
    "SLUICE_REDIS_TLS_CA_FILE",
    "SLUICE_REDIS_TLS_CERT_FILE",
    "SLUICE_REDIS_TLS_KEY_FILE",
    "SLUICE_REDIS_TLS_SERVERNAME",
  ];
  const set = names.filter((name) => env[name]);
  if (!anyTls) {
    if (set.length > 0)
      throw new Error(
        `${set.join(", ")} set, but no Redis connection uses TLS: write REDIS_URL (or SLUICE_REDIS_SENTINELS) as rediss://`,
      );
    return {};
  }
  if (Boolean(env.SLUICE_REDIS_TLS_CERT_FILE) !== Boolean(env.SLUICE_REDIS_TLS_KEY_FILE))
    throw new Error("SLUICE_REDIS_TLS_CERT_FILE and SLUICE_REDIS_TLS_KEY_FILE go together: set both or neither");
  const servername = env.SLUICE_REDIS_TLS_SERVERNAME || undefined;
  if (servername !== undefined && !/^[A-Za-z0-9.-]{1,253}$/.test(servername))
    throw new Error(`SLUICE_REDIS_TLS_SERVERNAME must be a host name, got "${servername}"`);
  const settings: RedisTlsSettings = {};
  const ca = fileFrom(env, "SLUICE_REDIS_TLS_CA_FILE");
  const cert = fileFrom(env, "SLUICE_REDIS_TLS_CERT_FILE");
  const key = fileFrom(env, "SLUICE_REDIS_TLS_KEY_FILE");
  if (ca !== undefined) settings.ca = ca;
  if (cert !== undefined) settings.cert = cert;
  if (key !== undefined) settings.key = key;
  if (servername !== undefined) settings.servername = servername;
  return settings;
}

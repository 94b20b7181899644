/**
 * What finding the caller costs on a tenant's host, apart from everything else a request costs
 * (issue 29, "the JWT path costs at most 1.5 x the Sluice-key path"): the data plane's `hostCaller`
 * (lib/dataplane/admission/hostCaller.ts) called in this process, one call after the other, against
 * an access cache holding one tenant with a Sluice key and the bench's JWT settings
 * (identity/benchTokens.ts), exactly as admission calls it:
 * - `caller-key`: `Authorization: Bearer <Sluice key>` (key id, live key, SHA-256, constant-time compare);
 * - `caller-jwt-es256`, `caller-jwt-rs256`: one token sent again and again (the verified-token cache);
 * - `caller-jwt-*-uncached`: a different token on every call (UNCACHED_POOL in turn: jose's
 *   signature check every time).
 * Pure CPU, no Redis or network, so the machine's load moves these rows less than the server rows:
 * `CPU µs/op` (this process's CPU per call) is what a caller adds to a request's server CPU.
 */
import { hostCaller } from "../../../lib/dataplane/admission/hostCaller";
import { AccessCache } from "../../../lib/policy/compiled/accessCache";
import type { KeyAccess, TenantAccess } from "../../../lib/policy/compiled/accessLoader";
import { identitySchema } from "../../../lib/policy/identity/identitySchema";
import { mintKey } from "../../../lib/policy/keys/apiKeySecret";
import type { BenchContext } from "../context";
import { lookupLoop, lookupRow } from "../lookupLoop";
import type { RunRow } from "../types";
import { BENCH_ALGS, benchJwtSettings, reusedToken, tokenPool } from "./benchTokens";

const TENANT = "benchcal";
const KEY_ID = "BenchK01";

async function accessCache(): Promise<{ cache: AccessCache; key: string }> {
  const minted = mintKey(KEY_ID);
  const key: KeyAccess = {
    id: KEY_ID,
    tenantId: TENANT,
    name: "bench",
    secretHash: minted.secretHash,
    expiresAtMs: null,
    overrides: [],
    rules: [],
  };
  const tenant: TenantAccess = {
    id: TENANT,
    name: TENANT,
    rules: [],
    keys: new Map([[KEY_ID, key]]),
    identity: identitySchema.parse({ hosts: ["api.bench.example.com"], jwt: await benchJwtSettings() }),
  };
  const tenants = new Map([[TENANT, tenant]]);
  const cache = new AccessCache({ loadAll: async () => tenants, loadTenant: async (id) => tenants.get(id) ?? null });
  await cache.ready();
  return { cache, key: minted.key };
}

/** One row per caller: `authorizations` sent in turn; the row fails loudly if any is refused. */
async function callerRow(
  ctx: BenchContext,
  cache: AccessCache,
  name: string,
  authorizations: readonly string[],
  note: string,
): Promise<RunRow> {
  const m = await lookupLoop(ctx.settings, authorizations.length, async (i) => {
    const caller = await hostCaller(cache, TENANT, {
      get: (h) => (h === "authorization" ? authorizations[i] : undefined),
    });
    return !("refused" in caller);
  });
  if (m.matched !== m.lookups) throw new Error(`bench: ${name}: ${m.lookups - m.matched} callers refused`);
  const row = lookupRow(
    "identity",
    name,
    m,
    `${note}; hostCaller in the bench process, CPU µs/op = this process's per call`,
  );
  return { ...row, refusedPct: 0 };
}

export async function callerCostRows(ctx: BenchContext): Promise<RunRow[]> {
  const { cache, key } = await accessCache();
  const rows = [await callerRow(ctx, cache, "caller-key", [`Bearer ${key}`], "a Sluice key")];
  for (const alg of BENCH_ALGS) {
    const token = await reusedToken(alg);
    rows.push(
      await callerRow(ctx, cache, `caller-jwt-${alg.toLowerCase()}`, [`Bearer ${token}`], `one ${alg} JWT, reused`),
    );
  }
  for (const alg of BENCH_ALGS) {
    const pool = (await tokenPool(alg)).map((t) => `Bearer ${t}`);
    rows.push(
      await callerRow(
        ctx,
        cache,
        `caller-jwt-${alg.toLowerCase()}-uncached`,
        pool,
        `${pool.length.toLocaleString("en")} ${alg} JWTs in turn (never cached)`,
      ),
    );
  }
  return rows;
}

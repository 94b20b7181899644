/**
 * Policy as code on two built servers on one Redis and one Postgres (issue 34, point 3; needs
 * `npm run build`): a policy document applied through A is in force on B within 1 s of A's
 * answer; and the `sluice` CLI (packages/client/src/cli/policyCli.ts, run in this process with the
 * real fetch and files) against A: export to a file, diff (0: no change), an edit diffs as a
 * change (2) and applies (0), after which diff is 0 again; an apply with the export's stale ETag
 * and an invalid file fail (1) with the server's message and change nothing.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { apiCall, type CreatedKey } from "@/test/support/adminClient";
import { msUntil, waitUntil } from "@/test/support/sluiceEnv";
import { twoServersForSuite } from "@/test/support/twoServers";
import { EXIT, runCli } from "@/packages/client/src/cli/policyCli";

const PROPAGATION_LIMIT_MS = 1_000;
const HOUR_MS = 3_600_000;
const servers = twoServersForSuite("http-policy", { SLUICE_REDIS_TIMEOUT_MS: "2000" });
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sluice-policy-"));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const perKey = (limit: number): RuleInput => ({
  name: "per-key",
  algorithm: "fixed_window",
  limit,
  windowMs: HOUR_MS,
  match: { path: "/api/v1/echo" },
});

async function fixture(): Promise<{ tenantId: string; key: CreatedKey }> {
  const { adminA, b } = servers;
  const tenant = await adminA.createTenant();
  servers.track(tenant.id);
  const key = await adminA.createKey(tenant.id, "ci-key");
  await adminA.putTenantRules(tenant.id, [perKey(100)]);
  await waitUntil(
    async () =>
      (await apiCall(b.url, "/api/v1/echo", { key: key.key })).headers.get("ratelimit-policy") ===
      `"per-key";q=100;w=3600`,
    10_000,
    "B serves the new tenant",
  );
  return { tenantId: tenant.id, key };
}

/** Runs `sluice <argv>` against A; answers the exit code and what it wrote. */
async function sluice(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(argv, {
    env: { SLUICE_URL: servers.a.url, SLUICE_TOKEN: servers.env.adminToken },
    out: (t) => void (out += t),
    err: (t) => void (err += t),
  });
  return { code, out, err };
}

describe("policy as code on two instances", () => {
  it("a document applied through A is in force on B within 1 s", async () => {
    const { adminA, b } = servers;
    const { tenantId, key } = await fixture();
    const exported = await adminA.request("GET", `/api/admin/tenants/${tenantId}/policy`);
    expect(exported.status).toBe(200);
    const doc = exported.body as Record<string, unknown>;
    const put = await adminA.request("PUT", `/api/admin/tenants/${tenantId}/policy`, {
      ...doc,
      rules: [perKey(7)],
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ changed: ["rules"], dryRun: false });
    const elapsed = await msUntil(
      performance.now(),
      async () =>
        (await apiCall(b.url, "/api/v1/echo", { key: key.key })).headers.get("ratelimit-policy") ===
        `"per-key";q=7;w=3600`,
      10 * PROPAGATION_LIMIT_MS,
    );
    expect(elapsed).toBeLessThan(PROPAGATION_LIMIT_MS);
  });
});

describe("the sluice CLI against a server", () => {
  it("export, diff, apply: exit codes CI can use, and a stale ETag or invalid file refused with the message", async () => {
    const { tenantId } = await fixture();
    const file = path.join(dir, `${tenantId}.yaml`);

    const exported = await sluice("export", tenantId, "--etag");
    expect(exported.code, exported.err).toBe(EXIT.ok);
    await writeFile(file, exported.out);
    const doc = parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(doc).toMatchObject({ tenant: tenantId, keys: { "ci-key": { tier: null, rules: [] } } });
    expect(doc.etag).toMatch(/^"/);

    expect(await sluice("diff", "-f", file)).toMatchObject({ code: EXIT.ok });

    const edited = { ...doc, access: { allow: [], deny: ["203.0.113.0/24"] }, keys: { "ci-key": { tier: "pro" } } };
    await writeFile(file, stringify(edited));
    const diff = await sluice("diff", "-f", file);
    expect(diff.code).toBe(EXIT.changes);
    expect(diff.out).toContain("~ keys.ci-key.tier\n");
    expect(diff.out).toContain("~ access\n");
    expect(diff.out).toContain("  + deny:\n  +   - 203.0.113.0/24\n");

    const applied = await sluice("apply", "-f", file);
    expect(applied.code, applied.err).toBe(EXIT.ok);
    expect(applied.out).toContain("keys.ci-key.tier, access");

    // The file still carries the ETag of the first export: the policy changed since, so 412.
    await writeFile(file, stringify({ ...edited, rules: [] }));
    const stale = await sluice("apply", "-f", file);
    expect(stale.code).toBe(EXIT.failed);
    expect(stale.err).toContain("apply refused: 412");

    // Without the ETag the file's policy (as applied) is the server's: no change.
    const withoutEtag: Record<string, unknown> = { ...edited };
    delete withoutEtag.etag;
    await writeFile(file, stringify(withoutEtag));
    expect(await sluice("diff", "-f", file)).toMatchObject({ code: EXIT.ok });

    await writeFile(file, stringify({ ...withoutEtag, rules: [{ name: "x", limit: 0, windowMs: 1000 }] }));
    const invalid = await sluice("apply", "-f", file);
    expect(invalid.code).toBe(EXIT.failed);
    expect(invalid.err).toContain("apply refused: 422");
    expect(invalid.err).toContain("rules.0.limit:");
    const after = await servers.adminA.request("GET", `/api/admin/tenants/${tenantId}/policy`);
    expect((after.body as { rules: unknown[] }).rules).toHaveLength(1);
  });
});

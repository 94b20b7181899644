/**
 * The migration prisma/migrations/20261228010000_rule_paths_as_seen, run as written on fixture
 * rows: in one transaction that is rolled back, temporary "Rule" and "Upstream" tables (which
 * unqualified names resolve to before the real ones) hold the fixtures, so no real row is read or
 * changed. It must agree with gatewayPathOf (the rule editor's warning) on every path.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { gatewayPathOf } from "./gatewayPaths";

const MIGRATION = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../prisma/migrations/20261228010000_rule_paths_as_seen/migration.sql",
);

const PATHS: [path: string | null, caseInsensitive: boolean][] = [
  ["/api/v1/orders/*", false],
  ["/api/v1/**", false],
  ["/api/v1", false],
  ["/api/v1/", false],
  ["/api/v1/*/items", false],
  ["/api/v1/echoes", false],
  ["/api/v1/echo", false],
  ["/api/v1/echo/**", false],
  ["/api/v1/check", false],
  ["/api/v1/authorize", false],
  ["/orders/*", false],
  ["/api/v10/x", false],
  ["/API/V1/orders", false],
  ["/API/V1/orders", true],
  ["/api/v1/ECHO/x", false],
  ["/api/v1/ECHO/x", true],
  [null, false],
];

let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
});

afterAll(async () => {
  await client.end();
});

it("rewrites the gateway paths under /api/v1 of tenants with an upstream, tenant rules and key overrides alike", async () => {
  await client.query("BEGIN");
  try {
    await client.query(
      `CREATE TEMP TABLE "Rule" (id text, "tenantId" text, "keyId" text, "path" text, "caseInsensitive" boolean) ON COMMIT DROP`,
    );
    await client.query(`CREATE TEMP TABLE "Upstream" ("tenantId" text) ON COMMIT DROP`);
    await client.query(`INSERT INTO "Upstream" VALUES ('gw')`);
    let n = 0;
    for (const [p, caseInsensitive] of PATHS)
      for (const [tenantId, keyId] of [
        ["gw", null],
        ["gw", "key1"],
        ["plain", null],
        ["plain", "key2"],
      ])
        await client.query(`INSERT INTO "Rule" VALUES ($1, $2, $3, $4, $5)`, [
          `r${n++}`,
          tenantId,
          keyId,
          p,
          caseInsensitive,
        ]);

    await client.query(readFileSync(MIGRATION, "utf8"));

    const { rows } = await client.query<{ tenantId: string; before: string | null; after: string | null }>(
      `SELECT "tenantId", "path" AS after, id FROM "Rule" ORDER BY substr(id, 2)::int`,
    );
    rows.forEach((row, i) => {
      const [before, caseInsensitive] = PATHS[Math.floor(i / 4)]!;
      const expected =
        row.tenantId === "gw" && before !== null ? (gatewayPathOf(before, caseInsensitive) ?? before) : before;
      expect({ before, caseInsensitive, tenant: row.tenantId, after: row.after }).toEqual({
        before,
        caseInsensitive,
        tenant: row.tenantId,
        after: expected,
      });
    });
    // The table above, spelled out for the cases the docs name.
    const after = (i: number) => rows[i * 4]!.after;
    expect([after(0), after(1), after(2), after(4), after(7), after(13)]).toEqual([
      "/orders/*",
      "/**",
      "/",
      "/*/items",
      "/api/v1/echo/**",
      "/orders",
    ]);
  } finally {
    await client.query("ROLLBACK");
  }
});

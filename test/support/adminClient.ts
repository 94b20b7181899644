/**
 * HTTP helpers for end-to-end tests against a running Sluice server (test/support/sluiceServer.ts):
 * - `adminClient(baseUrl, token)`: the admin API calls tests seed data with (tenants, keys, rules,
 *   revocation). Each call asserts the contract's success status and throws with the body otherwise;
 *   `request` is the raw call for tests that check error answers.
 * - `apiCall(baseUrl, path, init)`: one request under /api/v1, answered as status, headers and
 *   parsed body (JSON or problem+json), so assertions read plainly.
 * - `deleteTenants(databaseUrl, ids)`: removes what a test created (keys and rules cascade), by SQL,
 *   so cleanup works even when the server under test is down.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";

export interface ApiAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or null when there is none (or it is not JSON). */
  body: unknown;
}

export interface CreatedKey {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  key: string;
}

export interface AdminClient {
  request(method: string, path: string, body?: unknown): Promise<ApiAnswer>;
  createTenant(name?: string): Promise<{ id: string; name: string; createdAt: string }>;
  createKey(tenantId: string, name?: string): Promise<CreatedKey>;
  putTenantRules(tenantId: string, rules: RuleInput[]): Promise<unknown[]>;
  putKeyRules(keyId: string, rules: RuleInput[]): Promise<unknown[]>;
  revokeKey(keyId: string): Promise<void>;
}

async function answer(response: Response): Promise<ApiAnswer> {
  const text = await response.text();
  let body: unknown = null;
  if (text !== "") {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = text;
    }
  }
  return { status: response.status, headers: response.headers, body };
}

/** A name no other test run uses. */
export function uniqueName(label: string): string {
  return `http-test-${label}-${randomBytes(4).toString("hex")}`;
}

export function adminClient(baseUrl: string, token: string): AdminClient {
  const request = async (method: string, path: string, body?: unknown): Promise<ApiAnswer> => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return answer(response);
  };
  const expectStatus = async <T>(method: string, path: string, status: number, body?: unknown): Promise<T> => {
    const got = await request(method, path, body);
    if (got.status !== status)
      throw new Error(`${method} ${path}: expected ${status}, got ${got.status}: ${JSON.stringify(got.body)}`);
    return got.body as T;
  };
  return {
    request,
    createTenant: (name = uniqueName("tenant")) => expectStatus("POST", "/api/admin/tenants", 201, { name }),
    createKey: (tenantId, name = "test key") =>
      expectStatus("POST", `/api/admin/tenants/${tenantId}/keys`, 201, { name }),
    putTenantRules: (tenantId, rules) => expectStatus("PUT", `/api/admin/tenants/${tenantId}/rules`, 200, rules),
    putKeyRules: (keyId, rules) => expectStatus("PUT", `/api/admin/keys/${keyId}/rules`, 200, rules),
    revokeKey: async (keyId) => {
      await expectStatus("DELETE", `/api/admin/keys/${keyId}`, 204);
    },
  };
}

/** One request under /api/v1; `key` goes in `Authorization: Bearer`. */
export async function apiCall(
  baseUrl: string,
  path: string,
  init: { method?: string; key?: string; headers?: Record<string, string>; body?: unknown; signal?: AbortSignal } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(baseUrl + path, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
    signal: init.signal,
  });
  return answer(response);
}

/** Deletes the tenants (their keys, rules and refs cascade) and their audit events from the database at `databaseUrl`. */
export async function deleteTenants(databaseUrl: string, tenantIds: string[]): Promise<void> {
  if (tenantIds.length === 0) return;
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(`DELETE FROM "Tenant" WHERE id = ANY($1::text[])`, [tenantIds]);
    await client.query(`DELETE FROM "AuditEvent" WHERE "tenantId" = ANY($1::text[])`, [tenantIds]);
  } finally {
    await client.end();
  }
}

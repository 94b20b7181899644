/**
 * The admin API with the bearer token, for setting up and checking what a spec needs without
 * clicking through the UI. Every helper asserts the status it expects, so a broken set-up fails
 * where it happens. `uniqueName` keeps names apart across runs (tenant names are unique).
 */
import { expect, type APIRequestContext } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { ADMIN_TOKEN } from "./testEnv";

export interface Tenant {
  id: string;
  name: string;
  createdAt: string;
}

export interface CreatedKey {
  id: string;
  name: string;
  prefix: string;
  /** The full secret: shown only in the 201. */
  key: string;
}

export interface Operator {
  id: string;
  email: string;
  role: "admin" | "viewer";
  tenantIds: string[];
}

export interface AuditEvent {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string;
  tenantId: string | null;
  before: unknown;
  after: unknown;
}

/** A rule as the admin API takes it (CONTRACT.md); defaults fill the rest. */
export type RuleInput = { name: string; limit: number; windowMs: number } & Record<string, unknown>;

export function uniqueName(label: string): string {
  return `${label}-${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
}

export class AdminApi {
  constructor(private readonly request: APIRequestContext) {}

  /** Any admin call: status and parsed body (null for 204). */
  async call<T = unknown>(
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    path: string,
    data?: unknown,
  ): Promise<{ status: number; body: T }> {
    const response = await this.request.fetch(path, {
      method,
      data,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const text = await response.text();
    return { status: response.status(), body: (text ? JSON.parse(text) : null) as T };
  }

  private async expectStatus<T>(
    status: number,
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    path: string,
    data?: unknown,
  ): Promise<T> {
    const answer = await this.call<T>(method, path, data);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
    return answer.body;
  }

  createTenant(name: string): Promise<Tenant> {
    return this.expectStatus(201, "POST", "/api/admin/tenants", { name });
  }

  listTenants(): Promise<Tenant[]> {
    return this.expectStatus(200, "GET", "/api/admin/tenants");
  }

  /** The tenant with exactly this name, created if missing (for names that cannot be made unique). */
  async ensureTenant(name: string): Promise<Tenant> {
    const created = await this.call<Tenant>("POST", "/api/admin/tenants", { name });
    if (created.status === 201) return created.body;
    expect(created.status, JSON.stringify(created.body)).toBe(409);
    const found = (await this.listTenants()).find((t) => t.name === name);
    expect(found, `tenant ${name}`).toBeTruthy();
    return found!;
  }

  createKey(tenantId: string, name: string): Promise<CreatedKey> {
    return this.expectStatus(201, "POST", `/api/admin/tenants/${tenantId}/keys`, { name });
  }

  putTenantRules(tenantId: string, rules: RuleInput[]): Promise<unknown[]> {
    return this.expectStatus(200, "PUT", `/api/admin/tenants/${tenantId}/rules`, rules);
  }

  getTenantRules(tenantId: string): Promise<(RuleInput & { limit: number })[]> {
    return this.expectStatus(200, "GET", `/api/admin/tenants/${tenantId}/rules`);
  }

  createOperator(input: {
    email: string;
    password: string;
    role: "admin" | "viewer";
    tenantIds?: string[];
  }): Promise<Operator> {
    return this.expectStatus(201, "POST", "/api/admin/operators", input);
  }

  async deleteOperator(id: string): Promise<void> {
    const answer = await this.call("DELETE", `/api/admin/operators/${id}`);
    expect([204, 404]).toContain(answer.status);
  }

  listOperators(): Promise<Operator[]> {
    return this.expectStatus(200, "GET", "/api/admin/operators");
  }

  listTokens(): Promise<{ id: string; name: string }[]> {
    return this.expectStatus(200, "GET", "/api/admin/tokens");
  }

  async deleteToken(id: string): Promise<void> {
    const answer = await this.call("DELETE", `/api/admin/tokens/${id}`);
    expect([204, 404]).toContain(answer.status);
  }

  audit(query: { tenantId?: string; limit?: number } = {}): Promise<AuditEvent[]> {
    const params = new URLSearchParams(
      Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
    );
    return this.expectStatus(200, "GET", `/api/admin/audit${params.size ? `?${params}` : ""}`);
  }
}

/** Calls the demo protected route with an API key; answers the status. */
export async function echo(request: APIRequestContext, key: string, path = "/api/v1/echo"): Promise<number> {
  const response = await request.get(path, { headers: { authorization: `Bearer ${key}` } });
  return response.status();
}

/** A tenant with one key and the given rules: the usual start of a traffic test. */
export async function tenantWithKey(
  api: AdminApi,
  tenantName: string,
  rules: RuleInput[],
): Promise<{ tenant: Tenant; key: CreatedKey }> {
  const tenant = await api.ensureTenant(tenantName);
  await api.putTenantRules(tenant.id, rules);
  const key = await api.createKey(tenant.id, uniqueName("key"));
  return { tenant, key };
}

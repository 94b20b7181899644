/**
 * The harness of test/http/secretsNeverLeak.int.test.ts: one built server (`npm run build` first)
 * whose whole output is captured, started before the tests with a first admin from the environment,
 * and everything needed to prove that no secret leaves it. `leakWatch(label)`, called at the top of
 * the test file, answers:
 * - `secret(label, value)`: registers a value that must stay inside the server (`secrets`), and
 *   answers it; `random(label)` a fresh random value; the admin token and the first admin's password
 *   are registered already;
 * - `send(method, path, options)`: a request to the server; its answer (status, headers and body) is
 *   recorded in `answers` unless `record: false`; `expectStatus(expected, ...)` the same, asserting
 *   the status; `logIn(email, password, label)` a successful login whose session token is
 *   registered and whose answer but its Set-Cookie is recorded;
 * - `storedHashesAreSecrets(tenantId, operatorId)`: registers the hashes the database stores for the
 *   tenant's keys, the operator's sessions and the operator's password;
 * - `server()` and `admin()` once started; `createdTenants` and `createdOperatorEmails`, deleted after
 *   the tests with the Redis prefix.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, expect } from "vitest";
import { adminClient, deleteTenants, type AdminClient } from "./adminClient";
import { cleanupRedis, sluiceEnv, TEST_DATABASE_URL } from "./sluiceEnv";
import { startSluice, type SluiceServer } from "./sluiceServer";

export const random = (label: string): string => `${label}-${randomBytes(12).toString("base64url")}`;

export interface SendOptions {
  bearer?: string;
  cookie?: string;
  /** Sets `Origin` to the server's own origin (what the CSRF check wants of cookie-carried changes). */
  sameOrigin?: boolean;
  headers?: Record<string, string>;
  /** A string is sent as is (malformed JSON); anything else as JSON. */
  body?: unknown;
  /** Answers that may carry one secret by contract are checked by the caller instead. */
  record?: boolean;
}

export interface Sent {
  status: number;
  headers: Headers;
  text: string;
  json: () => unknown;
}

async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

export function leakWatch(label: string) {
  /** label → value; every value must stay inside the server. */
  const secrets = new Map<string, string>();
  function secret(label: string, value: string): string {
    secrets.set(label, value);
    return value;
  }

  const firstAdminEmail = `first-${randomBytes(4).toString("hex")}@secrets.sluice.test`;
  const setup = sluiceEnv(label, {
    SLUICE_ADMIN_EMAIL: firstAdminEmail,
    SLUICE_ADMIN_PASSWORD: secret("first admin password (env)", random("first-admin-password")),
  });
  secret("admin token", setup.adminToken);

  let server: SluiceServer | undefined;
  let admin: AdminClient | undefined;
  const createdTenants: string[] = [];
  const createdOperatorEmails = [firstAdminEmail];

  /** Every answer the server gave that must carry no secret: `METHOD path → status`, headers, body. */
  const answers: { what: string; text: string }[] = [];

  const started = (): SluiceServer => {
    if (!server) throw new Error("leakWatch: the server has not started");
    return server;
  };

  async function send(method: string, path: string, options: SendOptions = {}): Promise<Sent> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
    if (options.cookie !== undefined) headers.cookie = `sluice_session=${options.cookie}`;
    if (options.sameOrigin) headers.origin = started().url;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const body =
      options.body === undefined
        ? undefined
        : typeof options.body === "string"
          ? options.body
          : JSON.stringify(options.body);
    const response = await fetch(started().url + path, { method, headers, body, redirect: "manual" });
    const text = await response.text();
    if (options.record !== false) {
      const headerLines = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
      answers.push({ what: `${method} ${path} → ${response.status}`, text: `${headerLines}\n\n${text}` });
    }
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as unknown };
  }

  async function expectStatus(
    expected: number | number[],
    method: string,
    path: string,
    options: SendOptions = {},
  ): Promise<Sent> {
    const sent = await send(method, path, options);
    expect([expected].flat(), `${method} ${path}: ${sent.text}`).toContain(sent.status);
    return sent;
  }

  /** A successful login; answers its session token (a secret), the one thing its Set-Cookie may carry. */
  async function logIn(email: string, password: string, label: string): Promise<string> {
    const login = await send("POST", "/api/auth/login", { body: { email, password }, record: false });
    expect(login.status, login.text).toBe(200);
    const token = secret(label, /^sluice_session=([^;]+);/.exec(login.headers.get("set-cookie") ?? "")?.[1] ?? "");
    expect(token.length).toBeGreaterThan(20);
    // Everything of the login answer but its Set-Cookie is checked like any other answer.
    const headers = [...login.headers].filter(([name]) => name !== "set-cookie").map(([n, v]) => `${n}: ${v}`);
    answers.push({
      what: "POST /api/auth/login → 200 (without Set-Cookie)",
      text: `${headers.join("\n")}\n\n${login.text}`,
    });
    return token;
  }

  /** The stored hashes are secrets too. */
  async function storedHashesAreSecrets(tenantId: string, operatorId: string): Promise<void> {
    for (const row of await sql<{ secretHash: string }>(`SELECT "secretHash" FROM "ApiKey" WHERE "tenantId" = $1`, [
      tenantId,
    ]))
      secret("stored key hash", row.secretHash);
    for (const row of await sql<{ tokenHash: string }>(`SELECT "tokenHash" FROM "Session" WHERE "operatorId" = $1`, [
      operatorId,
    ]))
      secret("stored session hash", row.tokenHash);
    const [stored] = await sql<{ passwordHash: string }>(`SELECT "passwordHash" FROM "Operator" WHERE id = $1`, [
      operatorId,
    ]);
    secret("stored password hash", stored!.passwordHash);
  }

  beforeAll(async () => {
    server = await startSluice({ env: setup.env });
    admin = adminClient(server.url, setup.adminToken);
  });

  afterAll(async () => {
    await server?.stop();
    await deleteTenants(TEST_DATABASE_URL, createdTenants);
    await sql(`DELETE FROM "Operator" WHERE email = ANY($1::text[])`, [createdOperatorEmails]);
    await cleanupRedis(setup.prefix);
  });

  return {
    setup,
    secrets,
    secret,
    answers,
    createdTenants,
    createdOperatorEmails,
    send,
    expectStatus,
    logIn,
    storedHashesAreSecrets,
    server: started,
    admin(): AdminClient {
      if (!admin) throw new Error("leakWatch: the server has not started");
      return admin;
    },
  };
}

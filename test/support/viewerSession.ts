/**
 * A viewer operator for route tests (routeTestEnv.ts): made straight in the test database, then
 * signed in through the login route as a browser would. Answers the headers of its requests (the
 * session cookie and this origin) and pushes its id to `created`, which the test deletes afterwards.
 * Import and call after the environment is set.
 */
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { callRoute, ORIGIN, sessionCookieOf } from "./routeCall";
import type { Routes } from "./routeTestEnv";

export async function viewerSession(login: Routes, created: string[], label: string): Promise<Record<string, string>> {
  const { hashPassword } = await import("@/lib/control/auth/passwordHash");
  const { getDb } = await import("@/lib/db/client");
  const email = `${label}-viewer-${randomBytes(5).toString("hex")}@example.com`;
  const password = "viewer password 1";
  const operator = await getDb().operator.create({
    data: { email, passwordHash: await hashPassword(password), role: "viewer" },
  });
  created.push(operator.id);
  const session = await callRoute(login.POST, {
    method: "POST",
    path: "/api/auth/login",
    body: { email, password },
    headers: { origin: ORIGIN, "x-forwarded-for": "198.51.100.77" },
  });
  expect(session.status).toBe(200);
  return { cookie: sessionCookieOf(session), origin: ORIGIN };
}

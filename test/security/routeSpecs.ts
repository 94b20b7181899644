/**
 * The vocabulary of the route table (routeTable.ts, tenantRouteTable.ts): what a route method is
 * (`MethodSpec`: an admin read or write, public, a session endpoint, or a 405), the call an allowed
 * caller makes to it (`PreparedCall`), the HTTP methods checked, and shorthands for the table's rows.
 */
import type { HttpMethod } from "@/lib/http/httpMethods";
import type { Fixture } from "./securityFixtures";

export interface PreparedCall {
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
  /** The status an allowed caller gets. */
  status: number;
  /** Called with the body of a successful answer (to register what it created for cleanup). */
  created?: (body: { id: string }) => void;
}

export type MethodSpec =
  /** Admin API: any signed-in operator or the admin token may read (a POST that reads still gets the CSRF check). */
  | { kind: "read"; ok: (fx: Fixture) => Promise<PreparedCall> | PreparedCall }
  /** Admin API: only an admin (session from this origin, or the admin token) may change state. */
  | { kind: "write"; ok: (fx: Fixture) => Promise<PreparedCall> | PreparedCall }
  /** A read only an admin may make (API tokens): a viewer gets 403, with no CSRF check (a safe method). */
  | { kind: "admin_read"; ok: (fx: Fixture) => Promise<PreparedCall> | PreparedCall }
  /** Open to anyone by the contract (health, metrics). */
  | { kind: "public"; ok: (fx: Fixture) => Promise<PreparedCall> | PreparedCall }
  /** The session endpoints, each with its own rules (authorizationMatrix.int.test.ts). */
  | { kind: "login" | "logout" | "me"; ok: (fx: Fixture) => Promise<PreparedCall> | PreparedCall }
  | { kind: "not_allowed" };

export type RouteSpec = { outside: string } | { methods: Partial<Record<HttpMethod, MethodSpec>> };

export const NOT_ALLOWED: MethodSpec = { kind: "not_allowed" };
export const read = (ok: (fx: Fixture) => PreparedCall | Promise<PreparedCall>): MethodSpec => ({ kind: "read", ok });
export const adminRead = (ok: (fx: Fixture) => PreparedCall | Promise<PreparedCall>): MethodSpec => ({
  kind: "admin_read",
  ok,
});
export const write = (ok: (fx: Fixture) => PreparedCall | Promise<PreparedCall>): MethodSpec => ({ kind: "write", ok });
export const tenant = (fx: Fixture) => ({ tenantId: fx.tenantId });
export const key = (fx: Fixture) => ({ keyId: fx.keyId });

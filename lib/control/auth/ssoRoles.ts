/**
 * The role an identity provider's claims give an operator (lib/config/oidcConfig.ts):
 * - the claim is looked up by its whole name first (`https://example.com/roles`), then as a dotted
 *   path into nested objects (`realm_access.roles` in Keycloak);
 * - a string counts as one value, a list as its string members; anything else as none;
 * - any value among the admin values makes an `admin`, else any among the viewer values (or `*`) a
 *   `viewer`; otherwise null: the login is refused and nothing is created.
 * Values compare exactly (case included): a group named `Admins` is not `admins`.
 */
import type { Role } from "./operatorSchemas";

export interface RoleMapping {
  roleClaim: string;
  adminValues: string[];
  viewerValues: string[];
}

function lookUp(claims: Record<string, unknown>, claim: string): unknown {
  if (Object.hasOwn(claims, claim)) return claims[claim];
  let current: unknown = claims;
  for (const part of claim.split(".")) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** The string values of `claim` in `claims`: [] when it is missing or holds no text. */
export function claimValues(claims: Record<string, unknown>, claim: string): string[] {
  const value = lookUp(claims, claim);
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

export function mapRole(claims: Record<string, unknown>, mapping: RoleMapping): Role | null {
  const values = claimValues(claims, mapping.roleClaim);
  if (values.some((v) => mapping.adminValues.includes(v))) return "admin";
  if (mapping.viewerValues.includes("*")) return "viewer";
  if (values.some((v) => mapping.viewerValues.includes(v))) return "viewer";
  return null;
}

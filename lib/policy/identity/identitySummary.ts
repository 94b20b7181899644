/**
 * One sentence saying what a client of a tenant's hosts must send (the dashboard's identity card
 * shows it under the hosts). Browser-safe (no imports but types).
 */
import type { TenantIdentity } from "./identitySchema";

export function identitySummary(identity: TenantIdentity): string {
  if (identity.hosts.length === 0)
    return "No host: this tenant's clients call /api/v1 with a Sluice API key, as before.";
  const hosts = identity.hosts.length === 1 ? identity.hosts[0] : `${identity.hosts.length} hosts`;
  const ways: string[] = [];
  if (identity.jwt)
    ways.push(
      `a JWT${identity.jwt.issuer ? ` issued by ${identity.jwt.issuer}` : ""}${identity.jwt.audience ? ` for ${identity.jwt.audience}` : ""} in Authorization: Bearer`,
    );
  if (identity.apiKeys) ways.push("a Sluice API key of this tenant (Authorization: Bearer or x-api-key)");
  const must =
    ways.length === 0
      ? identity.anonymous
        ? "send no credential: every caller is anonymous and limited per IP"
        : "cannot be called: neither keys, JWTs nor anonymous callers are accepted"
      : `send ${ways.join(" or ")}${identity.anonymous ? ", or nothing at all (then they are limited per IP)" : ""}`;
  return `Clients of ${hosts} ${must}.`;
}

/**
 * Test-only credentials and the Redis prefix of one end-to-end run, shared by playwright.config.ts
 * (the server's environment) and the specs (who logs in, which token calls the admin API).
 *
 * The prefix is fresh per run unless SLUICE_REDIS_PREFIX is set: the login limiter counts failed
 * logins per IP for 15 minutes, and every spec logs in from 127.0.0.1, so a run must not inherit
 * the failures of the run before. The config module is loaded by the runner and again by each
 * worker; the first load puts the prefix into process.env, which the workers inherit.
 * global-teardown.ts deletes the run's keys.
 */
import { randomBytes } from "node:crypto";

export const ADMIN_EMAIL = "e2e-admin@sluice.test";
export const ADMIN_PASSWORD = "e2e-admin-password-not-secret";
export const ADMIN_TOKEN = "e2e-admin-token-not-secret-00000001";

process.env.E2E_REDIS_PREFIX ||= process.env.SLUICE_REDIS_PREFIX || `e2e${randomBytes(3).toString("hex")}:`;

export const REDIS_PREFIX: string = process.env.E2E_REDIS_PREFIX;
export const OWN_PREFIX = !process.env.SLUICE_REDIS_PREFIX;

/** The single sign-on spec's identity provider (testIdp.ts): E2E_PORT + 1000 unless E2E_IDP_PORT says otherwise. */
export const IDP_PORT = Number(process.env.E2E_IDP_PORT || Number(process.env.E2E_PORT || 3107) + 1000);
export const IDP_ISSUER = `http://127.0.0.1:${IDP_PORT}`;
export const IDP_CLIENT_ID = "sluice-e2e";
export const IDP_CLIENT_SECRET = "e2e-idp-client-secret-not-secret";
export const IDP_ADMIN_GROUP = "sluice-admins";
export const IDP_VIEWER_GROUP = "sluice-viewers";

/**
 * The Sluice server's environment (playwright.config.ts's webServer, without PORT); e2e/sso.spec.ts
 * starts a second instance with it, as a cluster's second node.
 */
export const SERVER_ENV: Record<string, string> = {
  NEXT_TELEMETRY_DISABLED: "1",
  NODE_ENV: "production",
  HOSTNAME: "127.0.0.1",
  // Test-only credentials (above): the first admin is created from them.
  SLUICE_ADMIN_EMAIL: ADMIN_EMAIL,
  SLUICE_ADMIN_PASSWORD: ADMIN_PASSWORD,
  SLUICE_ADMIN_TOKEN: ADMIN_TOKEN,
  SLUICE_REDIS_PREFIX: REDIS_PREFIX,
  // e2e/alerts.spec.ts: alerts evaluated every second, delivered to its receiver on the loopback.
  SLUICE_ALERT_INTERVAL_MS: "1000",
  SLUICE_ALERT_ALLOWED_ADDRESSES: "127.0.0.1",
  // e2e/sso.spec.ts: single sign-on against the OpenID provider that spec starts (testIdp.ts).
  SLUICE_OIDC_ISSUER: IDP_ISSUER,
  SLUICE_OIDC_CLIENT_ID: IDP_CLIENT_ID,
  SLUICE_OIDC_CLIENT_SECRET: IDP_CLIENT_SECRET,
  SLUICE_OIDC_ROLE_CLAIM: "groups",
  SLUICE_OIDC_ADMIN_VALUES: IDP_ADMIN_GROUP,
  SLUICE_OIDC_VIEWER_VALUES: IDP_VIEWER_GROUP,
  SLUICE_OIDC_LABEL: "Test IdP",
};

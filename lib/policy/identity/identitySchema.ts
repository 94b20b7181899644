/**
 * The one schema of a tenant's identity settings (CONTRACT.md, "Sluice in front of any API"),
 * shared by PUT /api/admin/tenants/{id}/identity and, later, the dashboard form:
 * `{ hosts, apiKeys, jwt, anonymous }`, every field optional in the input, defaults
 * `{ "hosts": [], "apiKeys": true, "jwt": null, "anonymous": false }` (a PUT replaces the whole).
 *
 * - `hosts`: at most 100 DNS names (lib/policy/identity/tenantHost.ts says what is refused and
 *   why), stored lower case; a name listed twice is kept once. A host held by another tenant is a
 *   409 (identityStore.ts), not judged here.
 * - `jwt`: null, or `{ issuer?, audience?, jwksUrl | jwks, subjectClaim = "sub", tierClaim? }`:
 *   - `jwksUrl`: absolute `http`/`https`, no credentials, fragment or port 0 (httpUrlProblem), and
 *     never a link-local address (169.254.0.0/16, fe80::/10: where cloud metadata answers, as for
 *     an upstream: lib/policy/upstreams/upstreamAddress.ts); a name is judged again where the JWKS
 *     is fetched (lib/policy/identity/jwksSource.ts);
 *   - `jwks`: an inline `{ "keys": [...] }` holding at least one usable key: a public RSA, EC
 *     (P-256, P-384, P-521) or OKP (Ed25519, Ed448) key for signatures (`use` absent or `sig`,
 *     `alg` absent or an accepted one). Private keys (`d`) and symmetric keys (`oct`) are refused
 *     outright: a secret pasted here would be stored and shown; HS* tokens are never accepted.
 *   - exactly one of the two.
 * - `apiKeys` (default true) and `anonymous` (default false): whether Sluice keys and callers with
 *   no credential at all are accepted on the tenant's hosts.
 */
import { z } from "zod";
import { httpUrlProblem } from "../../http/httpUrlProblem";
import { UPSTREAM_ADDRESS_REFUSED, upstreamAddressAllowed } from "../upstreams/upstreamAddress";
import { normalizeTenantHost, tenantHostProblem } from "./tenantHost";

export const MAX_TENANT_HOSTS = 100;
export const MAX_INLINE_KEYS = 100;

/** The algorithms a token may be signed with: asymmetric only (`none` and HS* are a 401). */
export const JWT_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
] as const;

const CLAIM = z
  .string({ error: "a claim name must be text" })
  .trim()
  .min(1, "a claim name must not be empty")
  .max(128, "a claim name must be at most 128 characters");

const EC_CURVES = new Set(["P-256", "P-384", "P-521"]);
const OKP_CURVES = new Set(["Ed25519", "Ed448"]);
const b64url = (v: unknown) => typeof v === "string" && v.length > 0 && /^[A-Za-z0-9_-]+$/.test(v);

/** Why one JWK cannot verify tokens, or null when it can. */
export function jwkProblem(jwk: unknown): string | null {
  if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk)) return "is not an object";
  const k = jwk as Record<string, unknown>;
  if (k.kty === "oct") return "is a symmetric (oct) key: only asymmetric keys are accepted (HS* tokens never are)";
  if (["d", "p", "q", "dp", "dq", "qi", "k"].some((m) => m in k))
    return "holds private key material: give the public key only";
  if (k.use !== undefined && k.use !== "sig") return 'is not a signature key (use must be "sig")';
  if (k.alg !== undefined && !(JWT_ALGORITHMS as readonly unknown[]).includes(k.alg))
    return `has alg ${JSON.stringify(k.alg)}: accepted are ${JWT_ALGORITHMS.join(", ")}`;
  if (k.kid !== undefined && typeof k.kid !== "string") return "has a kid that is not text";
  switch (k.kty) {
    case "RSA":
      return b64url(k.n) && b64url(k.e) ? null : "is an RSA key without n and e";
    case "EC":
      if (!EC_CURVES.has(k.crv as string)) return "is an EC key on a curve other than P-256, P-384 or P-521";
      return b64url(k.x) && b64url(k.y) ? null : "is an EC key without x and y";
    case "OKP":
      if (!OKP_CURVES.has(k.crv as string)) return "is an OKP key on a curve other than Ed25519 or Ed448";
      return b64url(k.x) ? null : "is an OKP key without x";
    default:
      return "has no kty of RSA, EC or OKP";
  }
}

const jwksSchema = z
  .object(
    {
      keys: z
        .array(z.unknown(), { error: "jwks.keys must be a list of keys" })
        .min(1, "jwks.keys must hold at least one key")
        .max(MAX_INLINE_KEYS, `jwks.keys must hold at most ${MAX_INLINE_KEYS} keys`)
        .superRefine((keys, ctx) => {
          keys.forEach((key, i) => {
            const problem = jwkProblem(key);
            if (problem) ctx.addIssue({ code: "custom", path: [i], message: `key ${i} ${problem}` });
          });
        })
        // jwkProblem refused anything but an object: the type says so (the value is unchanged).
        .transform((keys) => keys as Record<string, unknown>[]),
    },
    { error: 'jwks must be a key set: { "keys": [...] }' },
  )
  .loose();

/** Why a URL cannot be a JWKS URL, or null when it can. */
export function jwksUrlProblem(text: string): string | null {
  const problem = httpUrlProblem(text, "jwksUrl", "https://id.example.com/.well-known/jwks.json");
  if (problem) return problem;
  if (!upstreamAddressAllowed(new URL(text).hostname)) return `jwksUrl ${UPSTREAM_ADDRESS_REFUSED}`;
  return null;
}

export const jwtSettingsSchema = z
  .object(
    {
      issuer: z.string({ error: "issuer must be text" }).trim().min(1).max(2048).optional(),
      audience: z.string({ error: "audience must be text" }).trim().min(1).max(2048).optional(),
      jwksUrl: z
        .string({ error: "jwksUrl must be text" })
        .trim()
        .max(2048, "jwksUrl must be at most 2048 characters")
        .superRefine((text, ctx) => {
          const problem = jwksUrlProblem(text);
          if (problem) ctx.addIssue({ code: "custom", message: problem });
        })
        .optional(),
      jwks: jwksSchema.optional(),
      subjectClaim: CLAIM.default("sub"),
      tierClaim: CLAIM.optional(),
    },
    { error: "jwt must be an object or null" },
  )
  .strict()
  .refine((j) => (j.jwksUrl === undefined) !== (j.jwks === undefined), {
    message: "jwt needs exactly one of jwksUrl (fetched and cached) or jwks (inline keys)",
    path: ["jwksUrl"],
  });

export const identitySchema = z
  .object(
    {
      hosts: z
        .array(z.string({ error: "each host must be text" }), { error: "hosts must be a list of host names" })
        .max(MAX_TENANT_HOSTS, `hosts must list at most ${MAX_TENANT_HOSTS} hosts`)
        .superRefine((hosts, ctx) => {
          hosts.forEach((host, i) => {
            const problem = tenantHostProblem(host);
            if (problem) ctx.addIssue({ code: "custom", path: [i], message: `${JSON.stringify(host)}: ${problem}` });
          });
        })
        .transform((hosts) => [...new Set(hosts.map(normalizeTenantHost))])
        .default([]),
      apiKeys: z.boolean({ error: "apiKeys must be true or false" }).default(true),
      jwt: jwtSettingsSchema.nullable().default(null),
      anonymous: z.boolean({ error: "anonymous must be true or false" }).default(false),
    },
    { error: "the identity settings must be an object" },
  )
  .strict();

export type IdentityInput = z.input<typeof identitySchema>;
export type TenantIdentity = z.output<typeof identitySchema>;
export type JwtSettings = z.output<typeof jwtSettingsSchema>;

/**
 * The settings as GET/PUT .../identity answer them (stored: every field present, hosts lower case):
 * the answer's one description; `TenantIdentity` (the parsed input, which is what is stored) must
 * be assignable to it (the identity route's `answer` checks it).
 */
export const storedIdentitySchema = z.object({
  hosts: z
    .array(z.string())
    .meta({ description: "Host names (lower case, no port) whose requests are this tenant's." }),
  apiKeys: z.boolean().meta({ description: "Whether Sluice API keys are accepted on those hosts." }),
  jwt: z
    .object({
      issuer: z.string().optional(),
      audience: z.string().optional(),
      jwksUrl: z.string().optional(),
      jwks: z.looseObject({ keys: z.array(z.record(z.string(), z.unknown())) }).optional(),
      subjectClaim: z.string(),
      tierClaim: z.string().optional(),
    })
    .nullable()
    .meta({ description: "How JWT callers are verified; null: no JWT callers." }),
  anonymous: z
    .boolean()
    .meta({ description: "Whether callers with no credential at all are admitted (and limited per IP)." }),
});
export type StoredIdentity = z.infer<typeof storedIdentitySchema>;

export const DEFAULT_IDENTITY: TenantIdentity = { hosts: [], apiKeys: true, jwt: null, anonymous: false };

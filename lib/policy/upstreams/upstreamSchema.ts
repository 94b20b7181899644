/**
 * The one schema of a tenant's gateway upstream, shared by PUT /api/admin/tenants/{id}/upstream
 * and the dashboard form: `{ url, timeoutMs?, signRequests?, rotateSecret? }`.
 *
 * - `url`: absolute `http:` or `https:` URL with a host; no credentials (they would be forwarded
 *   to every request and shown in the dashboard), no query and no fragment (the client's query is
 *   passed on as it arrives). A path is allowed: it prefixes the forwarded path. Stored
 *   normalised by WHATWG URL parsing, without a trailing `/` (so `<url>` + `/orders` never
 *   doubles it). Never a link-local address (lib/policy/upstreams/upstreamAddress.ts; a name is
 *   judged where the gateway connects), never port 0.
 * - `timeoutMs`: how long the upstream may take to answer (status and headers), 100 .. 120,000,
 *   default 30,000.
 * - `signRequests` (default false): every forwarded request carries `X-Sluice-Signature`, an HMAC
 *   of it by the upstream's secret (lib/policy/upstreams/upstreamSignature.ts). The secret is
 *   generated when signing is turned on and kept by later PUTs that keep it on; a PUT without it
 *   turns signing off and forgets the secret (a PUT replaces the whole upstream).
 * - `rotateSecret` (default false): generate a new secret (needs `signRequests`).
 *
 * The answer (`UpstreamView`) is `{ url, timeoutMs }`, with `signRequests: true` and `secretHint`
 * when signing is on, and `secret` itself only in the answer of the PUT that generated it.
 */
import { z } from "zod";
import { httpUrlProblem } from "../../http/httpUrlProblem";
import { UPSTREAM_ADDRESS_REFUSED, upstreamAddressAllowed } from "./upstreamAddress";

export const UPSTREAM_TIMEOUT_MIN_MS = 100;
export const UPSTREAM_TIMEOUT_MAX_MS = 120_000;
export const UPSTREAM_TIMEOUT_DEFAULT_MS = 30_000;

/** Why a URL cannot be an upstream, or null when it can. */
export function upstreamUrlProblem(text: string): string | null {
  const problem = httpUrlProblem(text, "url", "https://api.example.com");
  if (problem) return problem;
  // `?` alone parses to an empty search: look at the text too.
  if (new URL(text).search !== "" || text.includes("?"))
    return "url must not contain a query (the client's query is passed on)";
  if (!upstreamAddressAllowed(new URL(text).hostname)) return `url ${UPSTREAM_ADDRESS_REFUSED}`;
  return null;
}

/** `https://api.example.com/base/` → `https://api.example.com/base`. */
export function normalizeUpstreamUrl(text: string): string {
  const url = new URL(text);
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${url.host}${path}`;
}

export const upstreamSchema = z
  .object({
    url: z
      .string({ error: "url is required and must be text" })
      .trim()
      .min(1, "url is required")
      .max(2048, "url must be at most 2048 characters")
      .superRefine((text, ctx) => {
        const problem = upstreamUrlProblem(text);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .transform(normalizeUpstreamUrl),
    timeoutMs: z
      .number({ error: "timeoutMs must be a number" })
      .int("timeoutMs must be a whole number")
      .min(UPSTREAM_TIMEOUT_MIN_MS, `timeoutMs must be at least ${UPSTREAM_TIMEOUT_MIN_MS}`)
      .max(UPSTREAM_TIMEOUT_MAX_MS, `timeoutMs must be at most ${UPSTREAM_TIMEOUT_MAX_MS.toLocaleString("en-US")}`)
      .default(UPSTREAM_TIMEOUT_DEFAULT_MS),
    signRequests: z.boolean({ error: "signRequests must be true or false" }).default(false),
    rotateSecret: z.boolean({ error: "rotateSecret must be true or false" }).default(false),
  })
  .strict()
  .refine((u) => u.signRequests || !u.rotateSecret, {
    message: "rotateSecret needs signRequests: true (without signing there is no secret)",
    path: ["rotateSecret"],
  });

export type UpstreamInput = z.input<typeof upstreamSchema>;
export type Upstream = z.output<typeof upstreamSchema>;

/** An upstream as answered and audited: never its secret (see above). The URL normalised (no trailing `/`), the timeout filled in. */
export const upstreamViewSchema = z.object({
  url: z.string().meta({
    description: "Absolute http(s) URL, normalised without a trailing `/`; its path prefixes the forwarded path.",
  }),
  timeoutMs: z.number().int().meta({ description: "How long the upstream may take to answer (status and headers)." }),
  signRequests: z
    .literal(true)
    .optional()
    .meta({ description: "Present when every forwarded request carries `X-Sluice-Signature` (docs/gateway.md)." }),
  secretHint: z.string().optional().meta({
    description: "`upsec_…` and the secret's last 4 characters, when signing; the secret itself is never shown again.",
  }),
});
export type UpstreamView = z.infer<typeof upstreamViewSchema>;

/** The PUT's answer: with the signing secret when this PUT generated one. */
export const savedUpstreamSchema = upstreamViewSchema.extend({
  secret: z.string().optional().meta({
    description: "The new signing secret (`upsec_…`): shown only in the answer of the PUT that generated it.",
  }),
});
export type SavedUpstream = z.infer<typeof savedUpstreamSchema>;

/** What the gateway needs (lib/policy/compiled/accessLoader.ts): the secret too, when signing. */
export interface UpstreamTarget {
  url: string;
  timeoutMs: number;
  signingSecret?: string;
}

/** POST .../upstream/test: what one request to the upstream found. */
export const upstreamTestSchema = z.object({
  ok: z.boolean().meta({ description: "The upstream answered with a status below 500." }),
  status: z.number().int().nullable().meta({ description: "The upstream's status; null when it did not answer." }),
  latencyMs: z.number().int().meta({ description: "From sending to the answer's headers (or the failure), ms." }),
  error: z.string().nullable().meta({ description: "Why it failed, in words (no address); null when it answered." }),
});
export type UpstreamTestResult = z.infer<typeof upstreamTestSchema>;

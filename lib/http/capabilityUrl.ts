/**
 * What may be shown of a capability URL (a webhook URL whose path or query is itself the secret:
 * `https://hooks.slack.com/services/T0/B0/XXXX`): its origin and a hint of its last 4 characters,
 * `https://hooks.slack.com/…XXXX`, enough to tell two apart and to check which one is set, never
 * enough to call it. A URL that is nothing but its origin is shown whole; text that does not
 * parse as a URL is shown as `…` alone. Idempotent: the hint of a hint is
 * the same hint (the audit log redacts events written before hints existed, and new ones again).
 */
const HINT_CHARS = 4;
/** Shorter secret parts than this show no characters at all (4 of 6 would give most of it away). */
const MIN_HINTED = 8;

export function capabilityUrlHint(url: string): string {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return "…";
  }
  if (origin === "null") return "…";
  const start = url.toLowerCase().startsWith(origin.toLowerCase())
    ? origin.length
    : url.indexOf("/", url.indexOf("//") + 2);
  const rest = start < 0 ? "" : url.slice(start);
  if (rest === "" || rest === "/") return origin;
  if (rest.startsWith("/…")) return `${origin}${rest}`; // already a hint
  return rest.length < MIN_HINTED ? `${origin}/…` : `${origin}/…${rest.slice(-HINT_CHARS)}`;
}

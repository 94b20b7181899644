/**
 * The checks every operator-typed outbound URL gets (a gateway upstream, an alert webhook): an
 * absolute `http:` or `https:` URL naming a host, without credentials (they would be shown in the
 * dashboard and sent along), port 0 or a fragment. Browser-safe (no imports): the forms run it too.
 * Returns the message for `field`, or null when the URL passes.
 */
export function httpUrlProblem(text: string, field: string, example: string): string | null {
  if (!URL.canParse(text)) return `${field} must be an absolute URL such as ${example}`;
  const url = new URL(text);
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${field} must use http or https`;
  if (url.hostname === "") return `${field} must name a host`;
  // Nothing listens on port 0: connecting to it fails on every request, not when it is saved.
  if (url.port === "0") return `${field} must not use port 0`;
  if (url.username !== "" || url.password !== "") return `${field} must not contain credentials (user:password@)`;
  if (url.hash !== "" || text.includes("#")) return `${field} must not contain a fragment`;
  return null;
}

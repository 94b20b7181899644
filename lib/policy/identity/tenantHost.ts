/**
 * Tenant host names (CONTRACT.md, "Sluice in front of any API"): what a tenant may claim, and the
 * key a request's `Host` is looked up by. Browser-safe (no imports): the forms may run it too.
 *
 * A host is a DNS name: labels of `a-z`, `0-9` and `-` (1 to 63 characters, no `-` at either end),
 * at most 253 characters, compared in lower case, a trailing `.` dropped. Refused, each with its
 * own message (a 422):
 * - a port (`api.example.com:8443`): a host is matched whatever port the request came to;
 * - a scheme or a path (`https://api.example.com/v1`): a host routes every path;
 * - a wildcard (`*.example.com`): one host, one tenant; a pattern could take over names other
 *   tenants hold later;
 * - an IP literal (`10.0.0.7`, `[::1]`) or an all-numeric last label: an address is not a name a
 *   tenant owns, and every client reaching the instance by its address would become that tenant's;
 * - non-ASCII (an IDN): give its `xn--` form, which is what clients send in `Host`.
 */

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Why `text` cannot be a tenant host, or null when it can (judged on the trimmed, lower-cased text). */
export function tenantHostProblem(text: string): string | null {
  const host = text.trim().toLowerCase();
  if (host === "") return "a host must not be empty";
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(host)) return "a host is a name only, without a scheme (https://)";
  if (host.includes("/")) return "a host is a name only, without a path: every path of the host is routed";
  if (host.includes("*")) return "a host must not be a wildcard: list each host";
  if (host.includes("@")) return "a host must not contain userinfo (user@)";
  if (host.startsWith("[") || host.includes(":"))
    return /^[^:]+:\d*$/.test(host)
      ? "a host must not carry a port: it is matched whatever port the request came to"
      : "a host must not be an IP address: name it (requests by address are never a tenant's)";
  if (/[^\x20-\x7e]/.test(host)) return "a host must be ASCII: give an international name in its xn-- form";
  const name = host.endsWith(".") ? host.slice(0, -1) : host;
  if (name.length > 253) return "a host must be at most 253 characters";
  const labels = name.split(".");
  if (labels.some((l) => !LABEL.test(l)))
    return "a host must be a DNS name: labels of a-z, 0-9 and - (not at either end), 1 to 63 characters each";
  if (/^\d+$/.test(labels[labels.length - 1]!))
    return "a host must not be an IP address: name it (requests by address are never a tenant's)";
  return null;
}

/** A valid host as stored and compared: lower case, without a trailing `.`. */
export function normalizeTenantHost(text: string): string {
  const host = text.trim().toLowerCase();
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

/**
 * The lookup key of a request's `Host` header: lower case, without its port or a trailing `.`;
 * undefined when absent. Cheap on purpose (every request on the data plane's port asks it): no
 * validation, as only stored (valid) hosts can be found with it.
 */
export function hostLookupKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let end = header.length;
  // `[::1]:8080`: an IP literal, never a tenant host; the colon scan below leaves it unmatched.
  const colon = header.lastIndexOf(":");
  if (colon >= 0 && header.indexOf("]") < 0) end = colon;
  if (end > 0 && header.charCodeAt(end - 1) === 46 /* . */) end -= 1;
  const host = end === header.length ? header : header.slice(0, end);
  return host.toLowerCase();
}

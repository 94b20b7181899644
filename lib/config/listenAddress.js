// @ts-check
/**
 * Where `npm start` listens, in plain JavaScript so the production server (scripts/server.mjs)
 * reads it before anything else loads.
 *
 * - `listenHost`: SLUICE_HOST, else HOSTNAME (Next's own name for it, kept working), else `0.0.0.0`
 *   (every address: what a container or a host behind a load balancer on another machine needs).
 * - `openTrustWarning`: SLUICE_TRUST_PROXY as a hop count trusts whoever connects to name the
 *   client's IP, so on an address others can reach anyone can pick theirs (allow lists, `ip` rules,
 *   the login and anonymous limits). Not refused (the port may be firewalled to the proxies), but
 *   said at start, with the two ways out.
 */

/**
 * @param {Record<string, string | undefined>} env
 * @returns {string}
 */
export function listenHost(env) {
  return env.SLUICE_HOST || env.HOSTNAME || "0.0.0.0";
}

/** @param {string} host */
function isLoopback(host) {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The start-up warning for a hop count on an address other than loopback, or null.
 * @param {string | undefined} trustProxy SLUICE_TRUST_PROXY as set
 * @param {string} host the address listened on
 * @returns {string | null}
 */
export function openTrustWarning(trustProxy, host) {
  const hops = trustProxy?.trim() ?? "";
  if (!/^\d+$/.test(hops) || Number(hops) === 0 || isLoopback(host)) return null;
  return (
    `SLUICE_TRUST_PROXY=${hops} lets whoever connects to ${host} name the client's IP; ` +
    "listen on loopback (SLUICE_HOST=127.0.0.1) or list the proxies' addresses (SLUICE_TRUST_PROXY=10.0.0.5,...)"
  );
}

// @ts-check
/**
 * Every security header Sluice sends, in one place, used by `next.config.js` (static headers on
 * every response, applied by Next's router at no per-request cost) and by `proxy.ts` (the page
 * Content-Security-Policy, which carries a fresh nonce per request).
 *
 * Plain JavaScript with JSDoc types on purpose: `next.config.js` is loaded by Node itself (no
 * TypeScript transform; Node 20 cannot import `.ts`), and this module must be importable from it.
 * TypeScript callers get the types from the JSDoc. No imports: nothing here may pull server code
 * into the config.
 *
 * What goes where:
 * - every response (`/:path*`): `X-Content-Type-Options: nosniff`, `Referrer-Policy: same-origin`
 *   (the dashboard's own links keep their referrer, which the CSRF check may fall back on; nothing
 *   leaves for another site), `X-Frame-Options: DENY` (browsers without `frame-ancestors`),
 *   `Cross-Origin-Opener-Policy`, `Permissions-Policy` (no powerful feature is used);
 * - API responses (`/api/:path*`): `Content-Security-Policy: default-src 'none'; frame-ancestors
 *   'none'`, so a JSON or problem body opened in a browser can never run or load anything;
 * - HTTPS only: `Strict-Transport-Security`, when the request's `X-Forwarded-Proto` is `https`
 *   (set by a TLS-terminating proxy, or by Next from the socket). A client that forges the header
 *   over plain HTTP gains nothing: browsers ignore HSTS received over HTTP (RFC 6797 section 8.1);
 * - pages: `pageContentSecurityPolicy(nonce)`, set by `proxy.ts`. Scripts run only with this
 *   request's nonce ('strict-dynamic' lets those load the chunks they import); `<style>` elements
 *   need the nonce too, while style *attributes* are allowed ('unsafe-inline' in style-src-attr
 *   only): React renders `style={...}` into server HTML (charts, bars), and a style attribute
 *   cannot run script. Development adds 'unsafe-eval' (React's dev tooling uses eval) and allows
 *   inline <style> (the dev server's CSS injection carries no nonce); production never does.
 */

/** @typedef {{ key: string, value: string }} HeaderEntry */
/** @typedef {{ source: string, headers: HeaderEntry[], has?: { type: "header", key: string, value?: string }[] }} HeaderRule */

/** @type {Readonly<Record<string, string>>} */
export const COMMON_SECURITY_HEADERS = Object.freeze({
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
});

/** JSON and problem bodies: nothing may run, load or frame them. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Two years, the preload list's minimum; subdomains of Sluice's own host only. */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/** The request header proxy.ts passes the nonce in (for any server component that needs it). */
export const NONCE_HEADER = "x-nonce";

/**
 * The Content-Security-Policy of a dashboard page rendered with `nonce`.
 * @param {string} nonce base64, fresh per request (`createNonce`)
 * @param {{ development?: boolean }} [options]
 * @returns {string}
 */
export function pageContentSecurityPolicy(nonce, options = {}) {
  if (!/^[A-Za-z0-9+/]{16,}={0,2}$/.test(nonce))
    throw new Error("pageContentSecurityPolicy: the nonce must be base64 of at least 12 bytes");
  const dev = options.development === true;
  const scripts = ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(dev ? ["'unsafe-eval'"] : [])];
  // `next dev` injects <style> elements without the nonce (CSS hot reload), as Next's guide notes.
  const styleElements = dev ? "'self' 'unsafe-inline'" : `'self' 'nonce-${nonce}'`;
  return [
    "default-src 'self'",
    `script-src ${scripts.join(" ")}`,
    `style-src ${styleElements}`,
    `style-src-elem ${styleElements}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** 128 random bits, base64: unguessable, and fresh for every page request. */
export function createNonce() {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** @param {Readonly<Record<string, string>>} headers @returns {HeaderEntry[]} */
const entries = (headers) => Object.entries(headers).map(([key, value]) => ({ key, value }));

/**
 * The `headers()` rules of next.config.js (see the module comment).
 * @returns {HeaderRule[]}
 */
export function staticHeaderRules() {
  return [
    { source: "/:path*", headers: entries(COMMON_SECURITY_HEADERS) },
    { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }] },
    {
      source: "/:path*",
      // The first value is what the outermost proxy saw.
      has: [{ type: "header", key: "x-forwarded-proto", value: "https(,.*)?" }],
      headers: [{ key: "Strict-Transport-Security", value: STRICT_TRANSPORT_SECURITY }],
    },
  ];
}

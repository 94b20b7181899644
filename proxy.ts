/**
 * Next 16 Proxy (runs on Node before a page renders): gives every page request a fresh CSP nonce.
 * The policy (lib/http/securityHeaders.js) goes on the response, and on the request too: Next
 * reads the nonce from the request's Content-Security-Policy and puts it on its own inline and
 * chunk scripts. Nonced HTML cannot be prerendered, so every page renders per request (the root
 * layout opts in with `connection()`).
 *
 * API routes, static chunks and public files are not matched: their headers are static
 * (next.config.js), and /api/v1 is the limiter's hot path. Prefetches are skipped too: an RSC
 * payload is not a document, its CSP would never be applied.
 */
import { NextResponse, type NextRequest } from "next/server";
import { createNonce, NONCE_HEADER, pageContentSecurityPolicy } from "@/lib/http/securityHeaders.js";

export function proxy(request: NextRequest): NextResponse {
  const nonce = createNonce();
  const policy = pageContentSecurityPolicy(nonce, { development: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(NONCE_HEADER, nonce);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/static/|_next/image|favicon\\.svg$|robots\\.txt$).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};

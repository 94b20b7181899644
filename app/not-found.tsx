import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found" };

/**
 * Sluice's own 404 page. Next's built-in one carries an inline <style> without the CSP nonce,
 * which the page policy (lib/http/securityHeaders.js) refuses.
 */
export default function NotFound() {
  return (
    <main className="login">
      <section className="login-card" aria-labelledby="not-found-heading">
        <h1 id="not-found-heading">Page not found</h1>
        <p className="hint">This page could not be found.</p>
        <p>
          <Link href="/">Back to the overview</Link>
        </p>
      </section>
    </main>
  );
}

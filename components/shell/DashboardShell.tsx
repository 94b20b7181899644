"use client";
/**
 * The frame of every dashboard page: navigation, the operator's email and role, and Log out.
 * Pages render only once the session is known. No session (the layout found none, or
 * /api/auth/me later answers 401: logged out elsewhere, expired) replaces the page with the
 * login, which comes back here afterwards. An operator limited to tenants sees no entries for the
 * instance-wide pages (operators, API tokens), and those pages, opened by their URL, say why
 * instead of failing with 403s. A single sign-on session's logout goes on to the identity
 * provider's logout when the server names one (`endSessionUrl`), which comes back to /login.
 */
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";
import { apiSend, errorMessage } from "@/components/api/apiClient";
import { useSession, type Session } from "@/components/api/useSession";
import { ErrorState, Loading } from "./PageState";
import { loginPathFor } from "./safeNextPath";
import { PropagationNotice } from "./PropagationNotice";

const NAV: readonly { href: string; label: string; matches: (path: string) => boolean; instanceWide?: true }[] = [
  { href: "/", label: "Overview", matches: (p) => p === "/" },
  { href: "/tenants", label: "Tenants", matches: (p) => p.startsWith("/tenants") || p.startsWith("/keys") },
  { href: "/audit", label: "Audit log", matches: (p) => p.startsWith("/audit") },
  { href: "/operators", label: "Operators", matches: (p) => p.startsWith("/operators"), instanceWide: true },
  { href: "/tokens", label: "API tokens", matches: (p) => p.startsWith("/tokens"), instanceWide: true },
  { href: "/docs", label: "API docs", matches: (p) => p.startsWith("/docs") },
];

/** In place of an instance-wide page, for an operator limited to tenants. */
function InstanceWideNotice({ label, tenantCount }: { label: string; tenantCount: number }) {
  return (
    <section className="card" aria-labelledby="instance-wide-heading">
      <h1 id="instance-wide-heading">{label}</h1>
      <p>
        Your account is limited to {tenantCount === 1 ? "one tenant" : `${tenantCount} tenants`}. {label} belong to the
        whole instance: an administrator without a tenant limit manages them.
      </p>
      <p>
        <Link href="/tenants">Go to your tenants</Link>
      </p>
    </section>
  );
}

function currentPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

function RedirectToLogin() {
  const router = useRouter();
  useEffect(() => router.replace(loginPathFor(currentPath())), [router]);
  return (
    <main className="centered">
      <Loading label="Redirecting to the login…" />
    </main>
  );
}

/** `initialSession`: null when the server saw no session, undefined when it could not tell. */
export default function DashboardShell({
  initialSession,
  children,
}: {
  initialSession: Session | null | undefined;
  children: ReactNode;
}) {
  if (initialSession === null) return <RedirectToLogin />;
  return <Shell initialSession={initialSession}>{children}</Shell>;
}

function Shell({ initialSession, children }: { initialSession: Session | undefined; children: ReactNode }) {
  const [logoutError, setLogoutError] = useState<string | null>(null);
  const [loggingOut, setLoggingOut] = useState(false);
  const session = useSession(initialSession, loggingOut);
  const router = useRouter();
  const pathname = usePathname();
  const queryClient = useQueryClient();
  const loggedOut = session.error?.status === 401;

  useEffect(() => {
    if (loggedOut) router.replace(loginPathFor(currentPath()));
  }, [loggedOut, router]);

  // Logging out: the page is unmounted and the session query paused first (no new polls), and
  // the requests already in flight finish while the session is still valid, so none of them
  // comes back 401 after the session ends.
  useEffect(() => {
    if (!loggingOut) return;
    let abandoned = false;
    void (async () => {
      while (queryClient.isFetching() > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      try {
        const answer = await apiSend<{ endSessionUrl?: string } | undefined>("POST", "/api/auth/logout");
        // A full page load on purpose: it drops every cached answer of the session that ended.
        queryClient.clear();
        window.location.assign(answer?.endSessionUrl ?? "/login");
      } catch (error) {
        if (abandoned) return;
        setLogoutError(errorMessage(error));
        setLoggingOut(false);
      }
    })();
    return () => {
      abandoned = true;
    };
  }, [loggingOut, queryClient]);

  function logOut() {
    setLogoutError(null);
    setLoggingOut(true);
  }

  if (session.data === undefined) {
    return (
      <main className="centered">
        {session.error && !loggedOut ? (
          <ErrorState error={session.error} />
        ) : (
          <Loading label={loggedOut ? "Redirecting to the login…" : "Loading…"} />
        )}
      </main>
    );
  }

  const limitedTo = session.data.tenantIds.length;
  const nav = limitedTo > 0 ? NAV.filter((item) => !item.instanceWide) : NAV;
  const instanceWidePage = limitedTo > 0 ? NAV.find((item) => item.instanceWide && item.matches(pathname)) : undefined;

  return (
    <div className="shell">
      <header className="topbar">
        <Link href="/" className="brand">
          Sluice
        </Link>
        <nav aria-label="Main">
          <ul>
            {nav.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={item.matches(pathname) ? "page" : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="whoami">
          <span className="whoami-email" title="Logged in as">
            {session.data.email}
          </span>
          <span className={`badge badge-${session.data.role}`}>{session.data.role}</span>
          <button type="button" className="button-quiet" onClick={logOut} disabled={loggingOut}>
            {loggingOut ? "Logging out…" : "Log out"}
          </button>
        </div>
      </header>
      {logoutError ? (
        <p className="banner banner-error" role="alert">
          Log out failed: {logoutError}
        </p>
      ) : null}
      <PropagationNotice />
      <main className="content">
        {loggingOut ? (
          <Loading label="Logging out…" />
        ) : instanceWidePage ? (
          <InstanceWideNotice label={instanceWidePage.label} tenantCount={limitedTo} />
        ) : (
          children
        )}
      </main>
    </div>
  );
}

import { headers } from "next/headers";
import type { ReactNode } from "react";
import type { Session } from "@/components/api/useSession";
import DashboardShell from "@/components/shell/DashboardShell";
import { isHttpsByHeaders } from "@/lib/control/auth/requestOrigin";
import { readSessionCookie } from "@/lib/control/auth/sessionCookie";
import { config } from "@/lib/config/config";
import { findSession } from "@/lib/control/auth/sessionStore";

export const dynamic = "force-dynamic";

/**
 * The operator of this request's session cookie: null when there is none (the shell sends the
 * browser to the login at once, without a 401 round trip), undefined when the session store could
 * not be read (the shell then asks /api/auth/me, which reports the problem as a problem body).
 */
async function currentOperator(): Promise<Session | null | undefined> {
  const requestHeaders = await headers();
  const token = readSessionCookie(requestHeaders, isHttpsByHeaders(requestHeaders, config().trustProxy));
  if (token === null) return null;
  try {
    const session = await findSession(token);
    return session ? { email: session.email, role: session.role, tenantIds: session.tenantIds } : null;
  } catch {
    return undefined;
  }
}

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  return <DashboardShell initialSession={await currentOperator()}>{children}</DashboardShell>;
}

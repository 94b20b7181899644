import type { Metadata } from "next";
import LoginForm from "@/components/shell/LoginForm";
import SsoLogin from "@/components/shell/SsoLogin";
import { safeNextPath } from "@/components/shell/safeNextPath";
import { config } from "@/lib/config/config";
import { ssoErrorMessage } from "@/lib/control/auth/ssoErrors";

export const metadata: Metadata = { title: "Log in" };
export const dynamic = "force-dynamic";

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { next, sso_error: ssoError } = await searchParams;
  const target = safeNextPath(typeof next === "string" ? next : undefined);
  const { oidc, passwordLogin } = config();
  return (
    <main className="login">
      <div className="login-options">
        {passwordLogin ? <LoginForm next={target} /> : null}
        {oidc ? (
          <SsoLogin
            label={oidc.label}
            next={target}
            problem={ssoErrorMessage(ssoError)}
            heading={passwordLogin ? undefined : "Log in to Sluice"}
          />
        ) : null}
      </div>
    </main>
  );
}

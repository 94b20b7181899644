/**
 * Single sign-on on the login page: a link that starts the flow (a plain navigation, so the IdP's
 * pages load top-level) and the reason the last attempt failed, if any. The message comes from
 * the server's fixed table (lib/control/auth/ssoErrors.ts), never from the URL.
 */
import { FormError } from "@/components/forms/FormError";

export default function SsoLogin({
  label,
  next,
  problem,
  heading,
}: {
  label: string;
  next: string;
  problem: string | null;
  /** The page's heading when password login is off (this card is then the only one). */
  heading?: string;
}) {
  const href = `/api/auth/sso/start${next === "/" ? "" : `?next=${encodeURIComponent(next)}`}`;
  return (
    <section className="card login-card login-sso" aria-labelledby="sso-heading">
      {heading ? <h1 id="sso-heading">{heading}</h1> : <h2 id="sso-heading">Single sign-on</h2>}
      <FormError message={problem} />
      <a className="button-primary" href={href}>
        Log in with {label}
      </a>
    </section>
  );
}

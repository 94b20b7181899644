/**
 * Just-in-time operators for single sign-on: the operator an SSO identity logs in as.
 * - Known identity (issuer, subject): its role (and email) follow the IdP on every login; a change
 *   is audited as `operator.update`. The IdP is authoritative for SSO operators, so the last-admin
 *   guard of the admin API does not hold it back.
 * - Unknown identity whose email an operator already has: linked only when the IdP says the email
 *   is verified and that operator has no SSO identity yet (`operator.update`, `ssoLinked`);
 *   otherwise refused (`email_taken`): an IdP that lets users pick any email must not take over
 *   an existing operator.
 * - Otherwise a new operator without a password (`operator.create`).
 * The actor of these audit events is `sso:<issuer>`. All in one transaction under the operators'
 * lock, so concurrent first logins of one person create one operator.
 */
import { getDb } from "../../db/client";
import { recordAudit, type Actor } from "../../policy/audit/auditLog";
import type { Role } from "./operatorSchemas";
import { lockOperators, operatorView } from "./operatorStore";
import { SsoError } from "./ssoErrors";
import type { SsoIdentity } from "./ssoFlow";

export interface SsoOperator {
  id: string;
  email: string;
  role: Role;
}

export async function operatorForSso(identity: SsoIdentity): Promise<SsoOperator> {
  const actor: Actor = { id: `sso:${identity.issuer}`, role: "admin" };
  const sso = { issuer: identity.issuer, subject: identity.subject };
  return getDb().$transaction(async (tx) => {
    await lockOperators(tx);
    const known = await tx.operator.findUnique({
      where: { ssoIssuer_ssoSubject: { ssoIssuer: identity.issuer, ssoSubject: identity.subject } },
    });
    if (known) {
      if (known.role === identity.role && known.email === identity.email) return known;
      const holder = await tx.operator.findUnique({ where: { email: identity.email } });
      if (holder && holder.id !== known.id) throw new SsoError("email_taken");
      const row = await tx.operator.update({
        where: { id: known.id },
        data: { role: identity.role, email: identity.email },
      });
      await recordAudit(tx, actor, {
        action: "operator.update",
        target: `operator:${row.id}`,
        before: operatorView(known),
        after: operatorView(row),
      });
      return row;
    }
    const sameEmail = await tx.operator.findUnique({ where: { email: identity.email } });
    if (sameEmail) {
      if (!identity.emailVerified || sameEmail.ssoSubject !== null) throw new SsoError("email_taken");
      const row = await tx.operator.update({
        where: { id: sameEmail.id },
        data: { role: identity.role, ssoIssuer: identity.issuer, ssoSubject: identity.subject },
      });
      await recordAudit(tx, actor, {
        action: "operator.update",
        target: `operator:${row.id}`,
        before: operatorView(sameEmail),
        after: { ...operatorView(row), ssoLinked: sso },
      });
      return row;
    }
    const row = await tx.operator.create({
      data: { email: identity.email, role: identity.role, ssoIssuer: identity.issuer, ssoSubject: identity.subject },
    });
    await recordAudit(tx, actor, {
      action: "operator.create",
      target: `operator:${row.id}`,
      after: { ...operatorView(row), sso },
    });
    return row;
  });
}

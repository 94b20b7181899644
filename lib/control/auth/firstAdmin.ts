/**
 * The first `admin` operator, from SLUICE_ADMIN_EMAIL and SLUICE_ADMIN_PASSWORD (lib/config/config.ts),
 * created only while no operator exists at all.
 *
 * - Idempotent and safe under concurrent starts (several instances, or several route bundles of
 *   one instance): the check and the insert run in one transaction under the operators' advisory
 *   lock, and a unique violation on the email (a racer that won anyway) counts as done.
 * - `ensureFirstAdmin()` runs it once per process, lazily (when the services start and before
 *   each login until it has succeeded); a failure (Postgres down) is retried on the next call.
 * - Audited as `operator.create` by the actor `bootstrap`. The password is never logged.
 */
import { recordAudit } from "../../policy/audit/auditLog";
import { config } from "../../config/config";
import { getDb } from "../../db/client";
import type { PrismaClient } from "../../db/generated/client";
import { isUniqueViolation } from "../../policy/tenants/tenantStore";
import { lockOperators, operatorView } from "./operatorStore";
import { hashPassword } from "./passwordHash";

export const BOOTSTRAP_ACTOR = { id: "bootstrap", role: "admin" } as const;

/** Creates the admin when no operator exists; true when this call created it. */
export async function createFirstAdmin(
  db: PrismaClient,
  credentials: { email: string; password: string },
): Promise<boolean> {
  if ((await db.operator.count()) > 0) return false;
  const passwordHash = await hashPassword(credentials.password);
  try {
    return await db.$transaction(async (tx) => {
      await lockOperators(tx);
      if ((await tx.operator.count()) > 0) return false;
      const row = await tx.operator.create({ data: { email: credentials.email, passwordHash, role: "admin" } });
      await recordAudit(tx, BOOTSTRAP_ACTOR, {
        action: "operator.create",
        target: `operator:${row.id}`,
        after: operatorView(row),
      });
      return true;
    });
  } catch (error) {
    if (isUniqueViolation(error, "email")) return false;
    throw error;
  }
}

let done: Promise<void> | undefined;

/** Once per process: the first admin from the environment, if configured. */
export function ensureFirstAdmin(): Promise<void> {
  const credentials = config().firstAdmin;
  if (!credentials) return Promise.resolve();
  done ??= createFirstAdmin(getDb(), credentials).then(
    (created) => {
      if (created) console.log(`sluice: created the first admin operator ${credentials.email}`);
    },
    (error: unknown) => {
      done = undefined;
      throw error;
    },
  );
  return done;
}

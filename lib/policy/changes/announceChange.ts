/**
 * What the admin API does after a change to a tenant's keys or rules has committed: apply it on
 * this instance, then announce it to the others (lib/policy/changes/changeBus.ts).
 *
 * Contract: a change is either in force on this instance when the admin API answers, or the API
 * says it is not.
 * - Resolves once this instance's access cache holds the tenant as committed (its reload succeeded,
 *   after one retry) and the notice was published (best effort: an instance that misses it picks
 *   the change up at its next full refresh), to `"everywhere"`; to `"delayed"` when the notice could
 *   not be sent: other instances then apply the change at their next full refresh, within
 *   `refreshSeconds` (the admin API says so: lib/policy/changes/changeReach.ts).
 * - If the reload fails twice, the notice is still published (other instances may well apply it) and
 *   `AppError("change_not_in_force")` is thrown: the admin API answers 503 problem+json "saved but
 *   not yet in force on this instance", with `Retry-After` set to the full-refresh period (the change
 *   is in force here at the next successful reload), the member `saved: true` and, when given, the
 *   saved resource as `resource` (a created key's secret is shown only once and must not be lost).
 */
import { AppError } from "../../http/errors";

export interface ChangeTargets {
  /** Reloads one tenant into this instance's access cache; rejects when the reload failed. */
  reload(tenantId: string): Promise<void>;
  /** Tells every instance; never throws; false when the notice could not be sent. */
  publish(tenantId: string): Promise<boolean>;
  /** Seconds until this instance's next full refresh at the latest (for Retry-After). */
  refreshSeconds: number;
}

/** How far the change reached: every instance within ~1 s, or only this one until the others' full refresh. */
export type ChangeReach = "everywhere" | "delayed";

export async function announceChange(targets: ChangeTargets, tenantId: string, saved?: unknown): Promise<ChangeReach> {
  let inForce = true;
  try {
    await targets.reload(tenantId);
  } catch {
    // One retry: a single dropped connection or a query cut by a pool reset should not make the
    // operator wonder; a rule store that is really down fails again at once.
    inForce = await targets.reload(tenantId).then(
      () => true,
      () => false,
    );
  }
  const published = await targets.publish(tenantId);
  if (!inForce) {
    throw new AppError(
      "change_not_in_force",
      `The change was saved but is not yet in force on this instance: reloading tenant ${tenantId} from the rule store failed. ` +
        `This instance applies it at its next successful reload (every ${targets.refreshSeconds} s); until then it enforces what it had.`,
      {
        headers: { "Retry-After": String(targets.refreshSeconds) },
        members: { saved: true, ...(saved === undefined ? {} : { resource: saved }) },
      },
    );
  }
  return published ? "everywhere" : "delayed";
}

/**
 * Metering by UTC day (issue 33 "Speed and scale"): closed days of `UsageHour` summed into
 * `UsageDay`, and the split of a time range into the days read from `UsageDay` and the rest read
 * from `UsageHour`, for the usage query, the quota seed and the billing hook.
 *
 * Contract
 * - `rollUpDay(db, day)` is called by the roll-up (usageRollup.ts) for a closed day only: one that no
 *   minute can reach any more (`UsageRollup.lastClosedDay`). It writes every tenant's rows of that day into `UsageDay` once, on any number
 *   of instances: the tenants' ledger rows (`UsageRollupDay`, INSERT ... ON CONFLICT DO NOTHING
 *   RETURNING) and their day rows are one transaction, and only the tenants claimed here are added.
 *   A tenant with no hours that day has no ledger row (its day is read from hours: none).
 * - `usageSpans(db, tenantId, fromMs, toMs)`: the days of [fromMs, toMs) whose tenant ledger row
 *   exists (whole UTC days inside the range), as merged spans, and the rest of the range (edges, the
 *   open day, any day not rolled up) as hour spans, from the hour containing `fromMs`. Reading both
 *   gives every unit once.
 * - `spanSql` writes spans as an OR of half-open ranges over a column ("FALSE" when none), with
 *   their bounds appended to the statement's parameters.
 */
import type { PrismaClient } from "../../db/generated/client";
import { DAY_MS, HOUR_MS } from "../record/monitoringKeys";

export interface Span {
  fromMs: number;
  toMs: number;
}

const stamp = (ms: number) => new Date(ms).toISOString().replace("Z", "");

/** Rolls day `day` (days since the epoch) up for every tenant not rolled up yet; answers the tenants added. */
export async function rollUpDay(db: PrismaClient, day: number): Promise<number> {
  const from = stamp(day * DAY_MS);
  const to = stamp((day + 1) * DAY_MS);
  return db.$transaction(
    async (tx) => {
      const claimed = await tx.$queryRawUnsafe<{ tenantId: string }[]>(
        `INSERT INTO "UsageRollupDay" ("tenantId", "day")
         SELECT DISTINCT "tenantId", $1::timestamp FROM "UsageHour" WHERE "hour" >= $1::timestamp AND "hour" < $2::timestamp
         ON CONFLICT DO NOTHING RETURNING "tenantId"`,
        from,
        to,
      );
      if (claimed.length === 0) return 0;
      await tx.$executeRawUnsafe(
        `INSERT INTO "UsageDay" ("tenantId", "day", "caller", "rule", "tier", "admitted", "refused", "units")
         SELECT "tenantId", $1::timestamp, "caller", "rule", "tier", SUM("admitted"), SUM("refused"), SUM("units")
           FROM "UsageHour"
          WHERE "hour" >= $1::timestamp AND "hour" < $2::timestamp AND "tenantId" = ANY($3::text[])
          GROUP BY "tenantId", "caller", "rule", "tier"
         ON CONFLICT ("tenantId", "day", "rule", "caller", "tier") DO UPDATE SET
           "admitted" = "UsageDay"."admitted" + EXCLUDED."admitted",
           "refused" = "UsageDay"."refused" + EXCLUDED."refused",
           "units" = "UsageDay"."units" + EXCLUDED."units"`,
        from,
        to,
        claimed.map((c) => c.tenantId),
      );
      return claimed.length;
    },
    { timeout: 300_000 },
  );
}

/** Deletes day rows (and their ledger rows) of days before `beforeMs`. */
export async function deleteDaysBefore(db: PrismaClient, beforeMs: number): Promise<void> {
  await db.$executeRawUnsafe(
    `DELETE FROM "UsageDay" d USING "UsageRollupDay" l
      WHERE l."day" < $1::timestamp AND d."tenantId" = l."tenantId" AND d."day" = l."day"`,
    stamp(beforeMs),
  );
  await db.usageRollupDay.deleteMany({ where: { day: { lt: new Date(beforeMs) } } });
}

function merge(days: number[]): Span[] {
  const spans: Span[] = [];
  for (const day of [...days].sort((a, b) => a - b)) {
    const last = spans[spans.length - 1];
    if (last && last.toMs === day * DAY_MS) last.toMs += DAY_MS;
    else spans.push({ fromMs: day * DAY_MS, toMs: (day + 1) * DAY_MS });
  }
  return spans;
}

/** [fromMs, toMs) less the day spans. */
function complement(fromMs: number, toMs: number, days: Span[]): Span[] {
  const spans: Span[] = [];
  let at = fromMs;
  for (const span of days) {
    if (span.fromMs > at) spans.push({ fromMs: at, toMs: span.fromMs });
    at = Math.max(at, span.toMs);
  }
  if (at < toMs) spans.push({ fromMs: at, toMs });
  return spans;
}

export async function usageSpans(
  db: PrismaClient,
  tenantId: string,
  fromMs: number,
  toMs: number,
): Promise<{ days: Span[]; hours: Span[] }> {
  const hourFrom = Math.floor(fromMs / HOUR_MS) * HOUR_MS;
  const firstDay = Math.ceil(hourFrom / DAY_MS);
  const endDay = Math.floor(toMs / DAY_MS);
  if (endDay <= firstDay) return { days: [], hours: hourFrom < toMs ? [{ fromMs: hourFrom, toMs }] : [] };
  const rolled = await db.usageRollupDay.findMany({
    where: { tenantId, day: { gte: new Date(firstDay * DAY_MS), lt: new Date(endDay * DAY_MS) } },
    select: { day: true },
  });
  const days = merge(rolled.map((r) => Math.floor(r.day.getTime() / DAY_MS)));
  return { days, hours: complement(hourFrom, toMs, days) };
}

/** `(column >= $a AND column < $b) OR ...` over `spans`, their bounds pushed onto `params`. */
export function spanSql(column: string, spans: Span[], params: unknown[]): string {
  if (spans.length === 0) return "FALSE";
  const parts = spans.map((span) => {
    params.push(stamp(span.fromMs), stamp(span.toMs));
    return `(${column} >= $${params.length - 1}::timestamp AND ${column} < $${params.length}::timestamp)`;
  });
  return `(${parts.join(" OR ")})`;
}

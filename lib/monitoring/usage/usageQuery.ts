/**
 * Reads metering rows (rolled up by usageRollup.ts) for the usage API and page.
 *
 * Contract
 * - By day, the whole UTC days of the range that are rolled up (usageDays.ts) are read from
 *   `UsageDay`, the rest (the range's edges, the open day, a day not rolled up yet) from `UsageHour`;
 *   by hour, `UsageHour` only (kept USAGE_HOUR_RETENTION_DAYS, as long as days).
 * - Rows per period (`start`: the hour's or UTC day's start, ISO 8601) from the hour containing
 *   `from` up to `to` (exclusive), oldest first; with `groupBy`, one row per period and group,
 *   ordered by group within a period. Periods without usage have no row.
 * - Without `groupBy`, and by key, caller or tier: requests (rule `*`); by rule: the rules' own
 *   counts (a request that several rules applied to counts under each, refused under the rule that
 *   refused it). `key`/`caller`/`tier` are absent on a row for requests without one (no API key,
 *   no caller, no tier), so the rows of any grouping add up to the same totals.
 * - `rule` is the rule's name (a deleted rule keeps its name; a ref no name is known for is shown as `#<ref>`).
 * - `usageCsv` writes the same rows as CSV (RFC 4180; a cell that a spreadsheet would read as a
 *   formula is prefixed with `'`).
 */
import type { PrismaClient } from "../../db/generated/client";
import { listRuleRefs } from "../../policy/rules/ruleRefs";
import { ANONYMOUS_CALLER_MARK, JWT_CALLER_MARK } from "../record/callerMember";
import { HOUR_MS, TOTAL_REF } from "../record/monitoringKeys";
import { spanSql, usageSpans } from "./usageDays";
import type { UsageGroup, UsageInput } from "./usageParams";
import type { UsageRow } from "./usageAnswers";

const GROUP_COLUMN: Record<UsageGroup, string> = {
  key: `CASE WHEN "caller" ~ '^[A-Za-z0-9]+$' THEN "caller" END`,
  caller: `NULLIF("caller", '')`,
  rule: `"rule"`,
  tier: `NULLIF("tier", '')`,
};

/** Sums come back as float8 (exact below 2^53) and the start as ISO text: no Decimal or Date per row. */
interface RawRow {
  start: string;
  grp: string | null;
  admitted: number;
  refused: number;
  units: number;
}

export async function queryUsage(db: PrismaClient, tenantId: string, input: UsageInput): Promise<UsageRow[]> {
  const unit = input.granularity === "hour" ? "hour" : "day";
  const group = input.groupBy ? GROUP_COLUMN[input.groupBy] : "NULL::text";
  const ruleFilter = input.groupBy === "rule" ? `"rule" <> '${TOTAL_REF}'` : `"rule" = '${TOTAL_REF}'`;
  const params: unknown[] = [tenantId];
  let keyFilter = "";
  if (input.key !== undefined) {
    params.push(input.key);
    keyFilter = ` AND "caller" = $2`;
  }
  const fromMs = input.from.getTime();
  const toMs = input.to.getTime();
  // By day, whole days already rolled up are read from UsageDay; by hour, everything from UsageHour.
  const spans =
    unit === "day"
      ? await usageSpans(db, tenantId, fromMs, toMs)
      : { days: [], hours: [{ fromMs: Math.floor(fromMs / HOUR_MS) * HOUR_MS, toMs }] };
  const part = (table: string, column: string, where: string) =>
    `SELECT date_trunc('${unit}', ${column}) AS start, ${group} AS grp, "admitted", "refused", "units"
       FROM "${table}" WHERE "tenantId" = $1 AND ${ruleFilter}${keyFilter} AND ${where}`;
  const parts: string[] = [];
  if (spans.days.length > 0) parts.push(part("UsageDay", `"day"`, spanSql(`"day"`, spans.days, params)));
  if (spans.hours.length > 0) parts.push(part("UsageHour", `"hour"`, spanSql(`"hour"`, spans.hours, params)));
  if (parts.length === 0) return [];
  const rows = await db.$queryRawUnsafe<RawRow[]>(
    `SELECT to_char(start, 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"') AS start, grp, SUM("admitted")::float8 AS admitted,
            SUM("refused")::float8 AS refused, SUM("units")::float8 AS units
       FROM (${parts.join(" UNION ALL ")}) AS cells
      GROUP BY cells.start, 2
      ORDER BY cells.start, 2 NULLS FIRST`,
    ...params,
  );
  const names = input.groupBy === "rule" ? await ruleNames(tenantId) : null;
  return rows.map((raw) => {
    const row: UsageRow = {
      start: raw.start,
      admitted: Number(raw.admitted),
      refused: Number(raw.refused),
      units: Number(raw.units),
    };
    if (input.groupBy && raw.grp !== null) {
      if (input.groupBy === "rule") row.rule = names?.get(raw.grp) ?? `#${raw.grp}`;
      else if (input.groupBy === "caller") row.caller = raw.grp;
      else row[input.groupBy] = raw.grp;
    }
    return {
      start: row.start,
      ...(row.key !== undefined && { key: row.key }),
      ...(row.caller !== undefined && { caller: row.caller }),
      ...(row.rule !== undefined && { rule: row.rule }),
      ...(row.tier !== undefined && { tier: row.tier }),
      admitted: row.admitted,
      refused: row.refused,
      units: row.units,
    };
  });
}

async function ruleNames(tenantId: string): Promise<Map<string, string>> {
  return new Map((await listRuleRefs(tenantId)).map(({ name, ref }) => [ref, name]));
}

/** Whether a caller column value is an API key, a JWT subject or an address (for display). */
export function callerKind(caller: string): "key" | "jwt" | "anonymous" {
  if (caller.startsWith(JWT_CALLER_MARK)) return "jwt";
  if (caller.startsWith(ANONYMOUS_CALLER_MARK)) return "anonymous";
  return "key";
}

function csvCell(value: string | number | undefined): string {
  if (value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function usageCsv(rows: UsageRow[], groupBy: UsageGroup | undefined): string {
  const columns = ["start", ...(groupBy ? [groupBy] : []), "admitted", "refused", "units"] as const;
  const lines = [columns.join(",")];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c as keyof UsageRow])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

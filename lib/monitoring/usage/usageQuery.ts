/**
 * Reads metering rows (`UsageHour`, rolled up by usageRollup.ts) for the usage API and page.
 *
 * Contract
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
import { TOTAL_REF } from "../record/monitoringKeys";
import type { UsageGroup, UsageInput } from "./usageParams";
import type { UsageRow } from "./usageAnswers";

const GROUP_COLUMN: Record<UsageGroup, string> = {
  key: `CASE WHEN "caller" ~ '^[A-Za-z0-9]+$' THEN "caller" END`,
  caller: `NULLIF("caller", '')`,
  rule: `"rule"`,
  tier: `NULLIF("tier", '')`,
};

interface RawRow {
  start: Date;
  grp: string | null;
  admitted: bigint | number;
  refused: bigint | number;
  units: bigint | number;
}

export async function queryUsage(db: PrismaClient, tenantId: string, input: UsageInput): Promise<UsageRow[]> {
  const unit = input.granularity === "hour" ? "hour" : "day";
  const group = input.groupBy ? GROUP_COLUMN[input.groupBy] : "NULL::text";
  const ruleFilter = input.groupBy === "rule" ? `"rule" <> '${TOTAL_REF}'` : `"rule" = '${TOTAL_REF}'`;
  const params: unknown[] = [tenantId, input.from, input.to];
  let keyFilter = "";
  if (input.key !== undefined) {
    params.push(input.key);
    keyFilter = ` AND "caller" = $4`;
  }
  const fromHour = new Date(Math.floor(input.from.getTime() / 3_600_000) * 3_600_000);
  params[1] = fromHour.toISOString().replace("Z", "");
  params[2] = input.to.toISOString().replace("Z", "");
  const rows = await db.$queryRawUnsafe<RawRow[]>(
    `SELECT date_trunc('${unit}', "hour") AS start, ${group} AS grp,
            SUM("admitted") AS admitted, SUM("refused") AS refused, SUM("units") AS units
       FROM "UsageHour"
      WHERE "tenantId" = $1 AND "hour" >= $2::timestamp AND "hour" < $3::timestamp AND ${ruleFilter}${keyFilter}
      GROUP BY 1, 2
      ORDER BY 1, 2 NULLS FIRST`,
    ...params,
  );
  const names = input.groupBy === "rule" ? await ruleNames(tenantId) : null;
  return rows.map((raw) => {
    const row: UsageRow = {
      start: new Date(raw.start).toISOString(),
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

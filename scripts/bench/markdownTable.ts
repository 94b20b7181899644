/**
 * The Markdown table every section of docs/benchmarks.md is built from (scripts/bench/resultsTable.ts):
 * `cell` renders one value (numbers in en-US with up to 5 decimals, NaN as n/a, pipes escaped),
 * `markdownTable` a header and its rows. Pure.
 */
export const cell = (value: unknown): string => {
  if (typeof value === "number")
    return Number.isNaN(value) ? "n/a" : value.toLocaleString("en-US", { maximumFractionDigits: 5 });
  return String(value ?? "")
    .replace(/\|/g, "\\|")
    .replace(/\n/g, " ");
};

export function markdownTable(header: string[], rows: unknown[][]): string {
  const line = (cells: unknown[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [line(header), `| ${header.map(() => "---").join(" | ")} |`, ...rows.map(line)].join("\n");
}

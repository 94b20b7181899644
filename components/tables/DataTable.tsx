/**
 * The scaffolding of every monitoring table: a scrolling wrapper, a labelled table and its header
 * row (numeric columns right-aligned). Rows are the caller's.
 */
import type { ReactNode } from "react";
import { ScrollRegion } from "./ScrollRegion";

export interface Column {
  label: ReactNode;
  num?: boolean;
  /** A column shown only when true (e.g. the tenant column of a table of all tenants). */
  when?: boolean;
}

export function DataTable({ label, columns, children }: { label?: string; columns: Column[]; children: ReactNode }) {
  return (
    <ScrollRegion label={label ?? "Table"}>
      <table aria-label={label}>
        <thead>
          <tr>
            {columns
              .filter((column) => column.when !== false)
              .map((column, i) => (
                <th key={i} scope="col" className={column.num ? "num" : undefined}>
                  {column.label}
                </th>
              ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </ScrollRegion>
  );
}

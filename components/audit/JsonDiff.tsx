"use client";
/**
 * Before and after of one audit entry, side by side, changed lines marked (jsonDiff.ts). "Before"
 * and "After" label their column (not headings: under the page's h1 they skipped a level); a
 * column that scrolls is reachable by keyboard (useScrolls).
 */
import { useId } from "react";
import { useScrolls } from "@/components/tables/ScrollRegion";
import { diffRows, type Cell } from "./jsonDiff";

function Column({ cells, title, emptyText }: { cells: Cell[]; title: string; emptyText: string }) {
  const present = cells.some((cell) => cell !== null);
  const titleId = useId();
  const [ref, scrolls] = useScrolls<HTMLPreElement>();
  return (
    <div>
      <p className="diff-title" id={titleId}>
        {title}
      </p>
      <pre ref={ref} role="group" aria-labelledby={titleId} tabIndex={scrolls ? 0 : undefined}>
        {present ? (
          cells.map((cell, i) =>
            cell ? (
              <span key={i} className={`diff-line diff-${cell.kind}`}>
                {cell.text}
              </span>
            ) : (
              <span key={i} className="diff-line diff-gap" aria-hidden="true">
                {" "}
              </span>
            ),
          )
        ) : (
          <span className="diff-line muted">{emptyText}</span>
        )}
      </pre>
    </div>
  );
}

export function JsonDiff({ before, after }: { before: unknown; after: unknown }) {
  const rows = diffRows(before, after);
  return (
    <div className="diff">
      <Column title="Before" cells={rows.map((r) => r.left)} emptyText="(nothing: created here)" />
      <Column title="After" cells={rows.map((r) => r.right)} emptyText="(nothing: deleted here)" />
    </div>
  );
}

/** Before and after of one audit entry, side by side, changed lines marked (jsonDiff.ts). */
import { diffRows, type Cell } from "./jsonDiff";

function Column({ cells, title, emptyText }: { cells: Cell[]; title: string; emptyText: string }) {
  const present = cells.some((cell) => cell !== null);
  return (
    <div>
      <h3>{title}</h3>
      <pre aria-label={title}>
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

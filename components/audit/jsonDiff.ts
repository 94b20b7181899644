/**
 * Before and after of an audit entry as two aligned columns of pretty-printed JSON, with the
 * lines that differ marked. Keys are sorted first, so a change of key order is no change.
 * Lines are matched by their longest common subsequence; a run of removed lines and the run of
 * added lines that replaces it share rows, so a changed value sits next to its old value.
 * Past MAX_LINES per side (no audit entry of Sluice comes near it) lines are compared in place.
 */

export type Cell = { text: string; kind: "same" | "removed" | "added" } | null;
export interface DiffRow {
  left: Cell;
  right: Cell;
}

const MAX_LINES = 3000;

/** JSON with object keys sorted at every level; `undefined`/`null` mean "nothing" (no lines). */
export function prettyJson(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === "object") {
      return Object.fromEntries(
        Object.keys(v as Record<string, unknown>)
          .sort()
          .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sorted(value), null, 2).split("\n");
}

type Op = { type: "same" | "removed" | "added"; text: string };

function lcsOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  // lengths[i][j]: LCS length of a[i..] and b[j..], in one flat array.
  const lengths = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[at(i, j)] =
        a[i] === b[j] ? lengths[at(i + 1, j + 1)]! + 1 : Math.max(lengths[at(i + 1, j)]!, lengths[at(i, j + 1)]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ type: "same", text: a[i]! });
      i++;
      j++;
    } else if (lengths[at(i + 1, j)]! >= lengths[at(i, j + 1)]!) ops.push({ type: "removed", text: a[i++]! });
    else ops.push({ type: "added", text: b[j++]! });
  }
  while (i < n) ops.push({ type: "removed", text: a[i++]! });
  while (j < m) ops.push({ type: "added", text: b[j++]! });
  return ops;
}

function inPlaceOps(a: string[], b: string[]): Op[] {
  const ops: Op[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length && i < b.length && a[i] === b[i]) ops.push({ type: "same", text: a[i]! });
    else {
      if (i < a.length) ops.push({ type: "removed", text: a[i]! });
      if (i < b.length) ops.push({ type: "added", text: b[i]! });
    }
  }
  return ops;
}

export function diffRows(before: unknown, after: unknown): DiffRow[] {
  const a = prettyJson(before);
  const b = prettyJson(after);
  const ops = a.length > MAX_LINES || b.length > MAX_LINES ? inPlaceOps(a, b) : lcsOps(a, b);
  const rows: DiffRow[] = [];
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      rows.push({
        left: k < removed.length ? { text: removed[k]!, kind: "removed" } : null,
        right: k < added.length ? { text: added[k]!, kind: "added" } : null,
      });
    }
    removed = [];
    added = [];
  };
  for (const op of ops) {
    if (op.type === "removed") removed.push(op.text);
    else if (op.type === "added") added.push(op.text);
    else {
      flush();
      rows.push({ left: { text: op.text, kind: "same" }, right: { text: op.text, kind: "same" } });
    }
  }
  flush();
  return rows;
}

/**
 * The access-list form's text areas (one entry per line) to and from the API's lists, and the
 * schema's field errors (`allow.<i>`) back to the line they came from, so each error is shown as
 * "Line n: …" under its text area. Blank lines are ignored and do not shift the numbering.
 */
export interface ListText {
  entries: string[];
  /** 1-based line number of each entry. */
  lineOf: number[];
}

export function parseListText(text: string): ListText {
  const entries: string[] = [];
  const lineOf: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    entries.push(line.trim());
    lineOf.push(i + 1);
  });
  return { entries, lineOf };
}

export const listToText = (entries: readonly string[]): string => entries.join("\n");

/**
 * The messages of one list (`list`: "allow" or "deny") from field errors keyed `allow.3` (one
 * entry) or `allow` (the list as a whole), as they are to be shown under its text area.
 */
export function listErrors(errors: Record<string, string>, list: "allow" | "deny", text: ListText): string[] {
  const out: string[] = [];
  if (errors[list]) out.push(errors[list]);
  const prefix = `${list}.`;
  const indexed = Object.entries(errors)
    .filter(([field]) => field.startsWith(prefix))
    .map(([field, message]) => [Number(field.slice(prefix.length)), message] as const)
    .sort((a, b) => a[0] - b[0]);
  for (const [index, message] of indexed) out.push(`Line ${text.lineOf[index] ?? index + 1}: ${message}`);
  return out;
}

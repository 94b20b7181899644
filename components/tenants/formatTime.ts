/** Times as the dashboard shows them: fixed en-GB formats, so every operator reads the same layout. */

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
}

export function formatClock(ms: number): string {
  return new Date(ms).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** A wait in milliseconds as a short phrase: 0 → "now", 1500 → "1.5 s", 90000 → "1.5 min". */
export function formatWait(ms: number): string {
  if (ms <= 0) return "now";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  if (ms < 3_600_000) return `${Number((ms / 60_000).toFixed(1))} min`;
  return `${Number((ms / 3_600_000).toFixed(1))} h`;
}

/**
 * Dates typed into the dashboard's forms in its one format (dateFormat.ts): "27 Nov 2026" for a
 * day, "27 Nov 2026, 14:30" for an instant (the comma optional), in the browser's time zone; the
 * ISO forms ("2026-11-27", "2026-11-27T14:30") are read too. No browser date picker, so no US
 * "mm/dd/yyyy" placeholder beside "27 Nov 2026" everywhere else (issue 31, point 8). Pure: the
 * local time zone is the JavaScript runtime's.
 */

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

export const DAY_PLACEHOLDER = "27 Nov 2026";
export const DATE_TIME_PLACEHOLDER = "27 Nov 2026, 14:30";

const WORDS = /^(\d{1,2})\s+([A-Za-z]{3,9})\.?\s+(\d{4})(?:,?\s+(\d{1,2}):(\d{2}))?$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T\s](\d{2}):(\d{2}))?$/;

interface Parts {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
}

function partsOf(text: string): Parts | null {
  const t = text.trim();
  const w = WORDS.exec(t);
  if (w) {
    const month = MONTHS.indexOf(w[2]!.slice(0, 3).toLowerCase());
    if (month < 0) return null;
    return {
      year: Number(w[3]),
      month,
      day: Number(w[1]),
      hour: w[4] === undefined ? undefined : Number(w[4]),
      minute: w[5] === undefined ? undefined : Number(w[5]),
    };
  }
  const i = ISO.exec(t);
  if (i)
    return {
      year: Number(i[1]),
      month: Number(i[2]) - 1,
      day: Number(i[3]),
      hour: i[4] === undefined ? undefined : Number(i[4]),
      minute: i[5] === undefined ? undefined : Number(i[5]),
    };
  return null;
}

/**
 * The instant a typed date means (local time; a day alone is its start), or null when it is not
 * a real date ("31 Feb 2026", "25:00") or the time is missing where `needTime`.
 */
export function parseDateText(text: string, needTime: boolean): number | null {
  const p = partsOf(text);
  if (!p) return null;
  if (needTime && p.hour === undefined) return null;
  const hour = p.hour ?? 0;
  const minute = p.minute ?? 0;
  if (hour > 23 || minute > 59) return null;
  const d = new Date(p.year, p.month, p.day, hour, minute);
  if (d.getFullYear() !== p.year || d.getMonth() !== p.month || d.getDate() !== p.day) return null;
  return d.getTime();
}

/** "2026-11-27" (local) of a typed day, or null: what the audit filters keep in the URL. */
export function isoDayOf(text: string): string | null {
  const ms = parseDateText(text, false);
  if (ms === null) return null;
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** "27 Nov 2026" of an ISO day ("2026-11-27"), as the field shows it. */
export function dayText(isoDay: string): string {
  const ms = parseDateText(isoDay, false);
  if (ms === null) return isoDay;
  const d = new Date(ms);
  const month = MONTHS[d.getMonth()]!;
  return `${d.getDate()} ${month.charAt(0).toUpperCase()}${month.slice(1)} ${d.getFullYear()}`;
}

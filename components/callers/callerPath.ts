/**
 * The caller page's address read back (components/tables/entityLinks.tsx's callerHref writes it):
 * a caller that is not an API key (a JWT subject `~<id>`, an anonymous address `@<ip>`:
 * lib/monitoring/record/callerMember.ts) as the hot-callers table names it. The member is
 * percent-encoded (`#`, `:`, `@`, `|`). Pure.
 */
import { callerMemberSchema } from "@/lib/monitoring/query/callerMemberSchema";

/** The member from the route segment (decoded once when still encoded); null when it names no caller. */
export function callerFromSegment(segment: string): string | null {
  let member = segment;
  if (/%[0-9A-Fa-f]{2}/.test(member)) {
    try {
      member = decodeURIComponent(member);
    } catch {
      return null;
    }
  }
  return callerMemberSchema.safeParse(member).success ? member : null;
}

/** "JWT subject alice@example.com", "JWT subject (hash Ab…)", "Anonymous IP 2001:db8::7", "API key KeyA1". */
export function callerTitle(member: string): string {
  if (member.startsWith("~#")) return `JWT subject (hash ${member.slice(2)})`;
  if (member.startsWith("~")) return `JWT subject ${member.slice(1)}`;
  if (member.startsWith("@")) return `Anonymous IP ${member.slice(1)}`;
  return `API key ${member}`;
}

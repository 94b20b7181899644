/**
 * The one schema of a tenant's access lists, shared by PUT /api/admin/tenants/{tenantId}/access
 * and the dashboard form: `{ allow: string[], deny: string[] }`, both required (a PUT replaces
 * both lists, so leaving one out must not silently empty it).
 *
 * Each list holds at most MAX_ACCESS_ENTRIES entries (lib/policy/access/accessEntry.ts: IPv4/IPv6
 * address, CIDR block, or `key:<keyId>`). An invalid entry is a 422 on `allow.<i>` / `deny.<i>`
 * whose message quotes the entry. Valid entries are stored canonical (RFC 5952 IPv6, mapped IPv4
 * as IPv4, `key:` lower-case) and without repeats, in the order given.
 * An entry may be in both lists: deny wins (lib/policy/access/accessMatcher.ts).
 * Browser-safe: no server imports.
 */
import { z } from "zod";
import { MAX_ACCESS_ENTRIES } from "../../common/fieldLimits";
import { parseAccessEntry } from "./accessEntry";

const entrySchema = z.string({ error: "each entry must be text" }).transform((raw, ctx) => {
  const parsed = parseAccessEntry(raw);
  if (parsed.ok) return parsed.canonical;
  const shown = raw.length > 80 ? `${raw.slice(0, 77)}...` : raw;
  ctx.addIssue({ code: "custom", message: `${JSON.stringify(shown)} ${parsed.reason}` });
  return z.NEVER;
});

const listSchema = (name: string) =>
  z
    .array(entrySchema, { error: `${name} is required and must be a list of entries` })
    .max(MAX_ACCESS_ENTRIES, `${name} may hold at most ${MAX_ACCESS_ENTRIES.toLocaleString("en-US")} entries`)
    .transform((entries) => [...new Set(entries)]);

export const accessListsSchema = z
  .object({
    allow: listSchema("allow"),
    deny: listSchema("deny"),
  })
  .strict();

export type AccessListsInput = z.input<typeof accessListsSchema>;
export type AccessLists = z.output<typeof accessListsSchema>;

export const EMPTY_ACCESS_LISTS: AccessLists = { allow: [], deny: [] };

/**
 * A decoded `RateLimitRequest` (lib/dataplane/envoy/proto) checked before anything is counted.
 *
 * Contract: `readRlsRequest(decoded)` returns the call as Sluice decides it (the domain, and per
 * descriptor its entries and the units it charges), or `{ invalid }` with a message for gRPC's
 * INVALID_ARGUMENT: no domain, no descriptors, a descriptor without entries, an empty key, more
 * descriptors or entries than any rule can match, keys or values past their bounds, a hits_addend
 * past the largest cost. It never throws, whatever the decoded shape.
 * - Units: `hits_addend` of the descriptor when Envoy sets it (per-descriptor hits_addend, Envoy
 *   1.31+), else the request's; 0 means 1 (Envoy's own rule).
 * - Bounds: a descriptor key as a rule's (64 characters); a value up to VALUE_MAX (4,096: a header
 *   such as User-Agent may be longer than a rule's 256, and is then counted by its hash); at most
 *   MAX_DESCRIPTORS descriptors of at most DESCRIPTOR_ENTRIES_MAX entries each (a longer descriptor
 *   could never match a rule). The server's message size limit (rlsServer.ts) bounds the rest.
 */
import { DESCRIPTOR_ENTRIES_MAX, DESCRIPTOR_KEY_MAX, MAX_UNITS } from "../../common/fieldLimits";

/** The most descriptors one call may carry (Envoy sends one per matching rate limit action set). */
export const MAX_DESCRIPTORS = 64;
/** The longest descriptor value accepted. */
export const VALUE_MAX = 4_096;
/** The longest domain (a tenant id is 8 characters; anything longer is simply unknown). */
export const DOMAIN_MAX = 256;

export interface RlsDescriptor {
  /** `[key, value]` pairs, in order. */
  entries: [string, string][];
  /** Units this descriptor charges. */
  hits: number;
}

export interface RlsCall {
  domain: string;
  descriptors: RlsDescriptor[];
}

interface DecodedEntry {
  key?: unknown;
  value?: unknown;
}
interface DecodedDescriptor {
  entries?: unknown;
  hits_addend?: { value?: unknown } | null;
}

const invalid = (message: string) => ({ invalid: message });

function units(value: unknown, what: string): number | { invalid: string } {
  const n = typeof value === "string" ? Number(value) : value;
  if (n === undefined || n === null) return 1;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) return invalid(`${what} must be a whole number`);
  if (n > MAX_UNITS) return invalid(`${what} must be at most ${MAX_UNITS}`);
  return n === 0 ? 1 : n;
}

export function readRlsRequest(decoded: unknown): RlsCall | { invalid: string } {
  const request = (decoded ?? {}) as { domain?: unknown; descriptors?: unknown; hits_addend?: unknown };
  const domain = request.domain;
  if (typeof domain !== "string" || domain === "") return invalid("domain is required (the tenant id)");
  if (domain.length > DOMAIN_MAX) return invalid(`domain must be at most ${DOMAIN_MAX} characters`);
  const descriptors = request.descriptors;
  if (!Array.isArray(descriptors) || descriptors.length === 0) return invalid("descriptors must list at least one");
  if (descriptors.length > MAX_DESCRIPTORS) return invalid(`at most ${MAX_DESCRIPTORS} descriptors per call`);
  const callHits = units(request.hits_addend, "hits_addend");
  if (typeof callHits !== "number") return callHits;
  const out: RlsDescriptor[] = [];
  for (let i = 0; i < descriptors.length; i++) {
    const descriptor = (descriptors[i] ?? {}) as DecodedDescriptor;
    const entries = descriptor.entries;
    if (!Array.isArray(entries) || entries.length === 0) return invalid(`descriptors[${i}] has no entries`);
    if (entries.length > DESCRIPTOR_ENTRIES_MAX)
      return invalid(`descriptors[${i}] has ${entries.length} entries; at most ${DESCRIPTOR_ENTRIES_MAX}`);
    const pairs: [string, string][] = [];
    for (let j = 0; j < entries.length; j++) {
      const { key, value } = (entries[j] ?? {}) as DecodedEntry;
      if (typeof key !== "string" || key === "") return invalid(`descriptors[${i}].entries[${j}].key is empty`);
      if (key.length > DESCRIPTOR_KEY_MAX)
        return invalid(`descriptors[${i}].entries[${j}].key must be at most ${DESCRIPTOR_KEY_MAX} characters`);
      const text = typeof value === "string" ? value : "";
      if (text.length > VALUE_MAX)
        return invalid(`descriptors[${i}].entries[${j}].value must be at most ${VALUE_MAX} characters`);
      pairs.push([key, text]);
    }
    let hits = callHits;
    if (descriptor.hits_addend) {
      const own = units(descriptor.hits_addend.value ?? 0, `descriptors[${i}].hits_addend`);
      if (typeof own !== "number") return own;
      hits = own;
    }
    out.push({ entries: pairs, hits });
  }
  return { domain, descriptors: out };
}

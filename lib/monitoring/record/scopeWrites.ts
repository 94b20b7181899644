/**
 * The writes of one flush to one scope's keys (a tenant's, or the global ones), merged before they
 * are sent: one HINCRBY per hash field, one ZINCRBY per sorted-set member, one ZADD LT per
 * lowest-value set, one ZADD GT per latest-value set, one LPUSH per list. Sorted sets are bounded twice: only the `keep` best members
 * of this flush are sent, and ZREMRANGEBYRANK trims the stored set back to `keep` afterwards (other
 * instances write too); lists likewise: at most `keep` values are pushed and LTRIM keeps the `keep`
 * newest (the trace's streams are written apart: lib/monitoring/record/flushCommands.ts traceCommandChunks). Every key written gets PEXPIRE `ttlMs` after its writes, so nothing outlives the retention.
 */

export type WriteCommand = [command: string, key: string, ...args: (string | number)[]];

interface RankedSet {
  keep: number;
  members: Map<string, number>;
}

function best(set: RankedSet, order: "highest" | "lowest"): [string, number][] {
  const entries = [...set.members];
  if (entries.length <= set.keep) return entries;
  const sign = order === "highest" ? -1 : 1;
  entries.sort((x, y) => sign * (x[1] - y[1]) || (x[0] < y[0] ? -1 : 1));
  return entries.slice(0, set.keep);
}

export class ScopeWrites {
  private readonly hashes = new Map<string, Map<string, number>>();
  private readonly counters = new Map<string, RankedSet>();
  private readonly lows = new Map<string, RankedSet>();
  private readonly latest = new Map<string, RankedSet>();
  private readonly lists = new Map<string, { keep: number; values: string[] }>();

  constructor(private readonly ttlMs: number) {}

  hincr(key: string, field: string, by: number): void {
    if (by === 0) return;
    let fields = this.hashes.get(key);
    if (!fields) this.hashes.set(key, (fields = new Map()));
    fields.set(field, (fields.get(field) ?? 0) + by);
  }

  /** Adds to a member's score; `keep` bounds the set to its highest scores (Infinity: unbounded index). */
  zincr(key: string, member: string, by: number, keep: number): void {
    const set = this.ranked(this.counters, key, keep);
    set.members.set(member, (set.members.get(member) ?? 0) + by);
  }

  /** Keeps a member's lowest score; `keep` bounds the set to its lowest scores. */
  zlow(key: string, member: string, score: number, keep: number): void {
    const set = this.ranked(this.lows, key, keep);
    const known = set.members.get(member);
    set.members.set(member, known === undefined ? score : Math.min(known, score));
  }

  /** Keeps a member's highest score (a time: its latest sighting); `keep` bounds the set to its highest scores. */
  zlatest(key: string, member: string, score: number, keep: number): void {
    const set = this.ranked(this.latest, key, keep);
    const known = set.members.get(member);
    set.members.set(member, known === undefined ? score : Math.max(known, score));
  }

  /** Pushes values (oldest first, so the newest ends at the head) and keeps the list's `keep` newest. */
  lpush(key: string, values: string[], keep: number): void {
    if (values.length === 0) return;
    let list = this.lists.get(key);
    if (!list) this.lists.set(key, (list = { keep, values: [] }));
    list.values.push(...values);
  }

  private ranked(sets: Map<string, RankedSet>, key: string, keep: number): RankedSet {
    let set = sets.get(key);
    if (!set) sets.set(key, (set = { keep, members: new Map() }));
    return set;
  }

  commands(): WriteCommand[] {
    const out: WriteCommand[] = [];
    const expire = (key: string) => out.push(["PEXPIRE", key, this.ttlMs]);
    for (const [key, fields] of this.hashes) {
      for (const [field, by] of fields) out.push(["HINCRBY", key, field, by]);
      expire(key);
    }
    for (const [key, set] of this.counters) {
      for (const [member, by] of best(set, "highest")) out.push(["ZINCRBY", key, by, member]);
      if (Number.isFinite(set.keep)) out.push(["ZREMRANGEBYRANK", key, 0, -(set.keep + 1)]);
      expire(key);
    }
    for (const [key, set] of this.lows) {
      const args: (string | number)[] = [];
      for (const [member, score] of best(set, "lowest")) args.push(score, member);
      out.push(["ZADD", key, "LT", ...args]);
      out.push(["ZREMRANGEBYRANK", key, set.keep, -1]);
      expire(key);
    }
    for (const [key, set] of this.latest) {
      const args: (string | number)[] = [];
      for (const [member, score] of best(set, "highest")) args.push(score, member);
      out.push(["ZADD", key, "GT", ...args]);
      out.push(["ZREMRANGEBYRANK", key, 0, -(set.keep + 1)]);
      expire(key);
    }
    for (const [key, list] of this.lists) {
      out.push(["LPUSH", key, ...list.values.slice(-list.keep)]);
      out.push(["LTRIM", key, 0, list.keep - 1]);
      expire(key);
    }
    return out;
  }
}

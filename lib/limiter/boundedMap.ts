/**
 * A Map with a size cap and per-entry expiry, for per-instance caches that must never grow without
 * bound. Past the cap the oldest-inserted entries go first; expired entries are dropped on read.
 */
export class BoundedMap<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, expiresAt: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Replaces a live entry's value, keeping its expiry; false when there is none (absent or expired). */
  replace(key: string, value: V, now: number): boolean {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= now) return false;
    entry.value = value;
    return true;
  }

  get size(): number {
    return this.entries.size;
  }
}

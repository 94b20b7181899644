/**
 * `lastUsedAt` of API keys, kept off the request path: uses are noted in memory and written to
 * Postgres in one batched update at most every FLUSH_MS (so the figure is up to that stale).
 * A failed write is dropped; the next use notes the key again. Admin tokens' lastUsedAt goes the
 * same way with its own writer and interval (lib/control/tokens/tokenUsage.ts).
 */
import { touchKeys } from "./keyStore";

export const FLUSH_MS = 30_000;

export class KeyUsage {
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly write: (ids: string[], at: Date) => Promise<void> = touchKeys,
    private readonly flushMs: number = FLUSH_MS,
  ) {}

  noteUse(keyId: string): void {
    this.pending.add(keyId);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    this.timer = null;
    const ids = [...this.pending];
    this.pending.clear();
    await this.write(ids, new Date()).catch(() => undefined);
  }
}

/**
 * Runs tasks one at a time per key, within this process: a task holding keys [a, b] starts only
 * after every earlier task holding a or b has finished (FIFO per key; tasks on other keys run
 * concurrently). Waits only ever point at earlier tasks, so it cannot deadlock. A task's failure
 * is its caller's; it never blocks or fails the tasks after it. Idle keys leave no entry behind.
 *
 * The login limit uses it so that the check "may this email/IP try again?" and the recording of
 * a failure cannot interleave between parallel attempts on one instance.
 */
export class SerialByKey {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(keys: string[], task: () => Promise<T>): Promise<T> {
    const unique = [...new Set(keys)];
    const earlier = unique.map((key) => this.tails.get(key));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    for (const key of unique) this.tails.set(key, finished);
    try {
      await Promise.all(earlier);
      return await task();
    } finally {
      finish();
      for (const key of unique) if (this.tails.get(key) === finished) this.tails.delete(key);
    }
  }

  /** Keys with a running or waiting task (for tests). */
  get busyKeys(): number {
    return this.tails.size;
  }
}

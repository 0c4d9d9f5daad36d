/**
 * Per-key mutual exclusion. Mutations of one order run one after another, like the real API's
 * synchronous calls, while different orders proceed in parallel.
 */
export class KeyedLock<K> {
  private readonly tails = new Map<K, Promise<void>>();

  async run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await task();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

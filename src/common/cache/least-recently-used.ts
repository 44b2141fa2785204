/**
 * A bounded map of what a process remembers per key (an organisation's settings, a conversion's build state): reading
 * or writing a key makes it the most recent, and past `capacity` keys the least recently used is forgotten.
 */
export class LeastRecentlyUsed<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) this.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key); // re-inserted last: the map's order is the order of use
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets `key` only while it still holds `value` (a failed read must not forget what replaced it). */
  forget(key: string, value: V): void {
    if (this.entries.get(key) === value) this.entries.delete(key);
  }
}

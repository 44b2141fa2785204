/**
 * Collects typed query parameters. Every value reaches ClickHouse as `{pN:Type}`, never as SQL text.
 */
export class SqlParameters {
  private readonly values: Record<string, unknown> = {};
  private next = 0;

  /** Registers a value and returns its placeholder, e.g. `{p0:Array(String)}`. */
  add(type: string, value: unknown): string {
    const name = `p${this.next++}`;
    this.values[name] = value;
    return `{${name}:${type}}`;
  }

  /** Like add, under a fixed name (for values such as the organisation that queries reuse). */
  named(name: string, type: string, value: unknown): string {
    this.values[name] = value;
    return `{${name}:${type}}`;
  }

  toObject(): Record<string, unknown> {
    return { ...this.values };
  }
}

export interface CompiledSql {
  sql: string;
  params: Record<string, unknown>;
}

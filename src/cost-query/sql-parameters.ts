/**
 * Collects typed query parameters. Every value reaches ClickHouse as `{pN:Type}`, never as SQL text.
 */
export class SqlParameters {
  private readonly values: Record<string, unknown> = {};
  private next = 0;

  /** `prefix` names the placeholders: a fragment compiled apart (rule-defined categories) uses its own. */
  constructor(private readonly prefix = 'p') {}

  /** Registers a value and returns its placeholder, e.g. `{p0:Array(String)}`. */
  add(type: string, value: unknown): string {
    const name = `${this.prefix}${this.next++}`;
    this.values[name] = value;
    return `{${name}:${type}}`;
  }

  /** Like add, under a fixed name (for values such as the organisation that queries reuse). */
  named(name: string, type: string, value: unknown): string {
    this.values[name] = value;
    return `{${name}:${type}}`;
  }

  /** The values of a fragment compiled with parameters of its own (another prefix), for a statement embedding it. */
  include(values: Record<string, unknown>): void {
    Object.assign(this.values, values);
  }

  toObject(): Record<string, unknown> {
    return { ...this.values };
  }
}

export interface CompiledSql {
  sql: string;
  params: Record<string, unknown>;
}

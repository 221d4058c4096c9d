/** Collects positional parameters while SQL is assembled, so fragments can be combined freely. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Values that repeat across many slots (models, types, roles…), each kept once and named by number. */
export class Interned<T> {
  private readonly values: T[] = [];
  private readonly numbers = new Map<T, number>();

  number(value: T): number {
    let n = this.numbers.get(value);
    if (n === undefined) this.numbers.set(value, (n = this.values.push(value) - 1));
    return n;
  }

  value(n: number): T {
    return this.values[n]!;
  }
}

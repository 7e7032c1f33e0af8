/** `set` with `n` added, or removed if it was there: a new set, for React state. */
export function toggled(set: ReadonlySet<number>, n: number): ReadonlySet<number> {
  const next = new Set(set);
  if (next.has(n)) next.delete(n);
  else next.add(n);
  return next;
}

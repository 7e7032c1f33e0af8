type Column = Int32Array | Uint8Array | Uint16Array | Float64Array;

/**
 * `column` with room for at least `size` slots of `width` numbers each: itself when it has it, else a copy
 * grown to twice its length or more, new slots set to `fill`. The index's columns grow as entries come.
 */
export function grown<C extends Column>(column: C, size: number, fill = 0, width = 1): C {
  if (size * width <= column.length) return column;
  const next = new (column.constructor as new (length: number) => C)(Math.max(size * width, column.length * 2, 1024 * width));
  next.set(column);
  if (fill !== 0) next.fill(fill, column.length);
  return next;
}

// How deeply a parsed JSON value nests, measured without recursion. V8's JSON.parse reads any depth, but
// JSON.stringify, structuredClone and most code that walks a value recurse once per level and overflow the stack a
// few thousand levels down (JSON.stringify: between 4,000 and 8,000 on Node 20's default stack). A line nested
// deeper than MAX_JSON_DEPTH is no entry pi wrote: the library names it and reads no further into it. Pure.

/** Deeper than anything pi writes (a tool call's arguments nest a few levels), well within what recursion survives. */
export const MAX_JSON_DEPTH = 1000;

/** Whether `value` nests objects and arrays more than `max` levels deep (a scalar is level 0, `[]` level 1). */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== "object" || value === null) return false;
  // each container with its depth: a walk over the values, never the call stack
  const stack: [object, number][] = [[value, 1]];
  while (stack.length) {
    const [container, depth] = stack.pop()!;
    if (depth > max) return true;
    if (Array.isArray(container)) {
      for (const child of container as unknown[]) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    } else {
      // for…in rather than Object.values: no array made per object, on every line of a library
      for (const key in container) {
        const child = (container as Record<string, unknown>)[key];
        if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
      }
    }
  }
  return false;
}

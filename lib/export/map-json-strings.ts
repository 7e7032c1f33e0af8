/**
 * The walk every redaction takes over a parsed JSONL line: each string, keys included, at any depth, passed
 * through a visitor, except where pi's schema puts the session's structure (session-shape.ts) and an image's
 * bytes (image-data.ts). Not responsible for what a string becomes: the visitor says.
 */
import { isImageData } from "./image-data";
import { LINE_SHAPE, type Shape } from "./session-shape";

/** An object or array met on the walk: enough to spell the path of a string inside it. */
export interface JsonContainer {
  readonly parent: JsonContainer | null;
  /** its key in the parent (null for the root) */
  readonly key: string | null;
  readonly array: boolean;
}

/**
 * Gives the new text of one string: a value (`key` is its key, or index, in `container`; `container` is null
 * when the whole value is that string) or, with `isKey`, a key of `container` (`key` is that key).
 */
export type StringVisitor = (text: string, container: JsonContainer | null, key: string | null, isKey: boolean) => string;

interface Frame extends JsonContainer {
  from: Record<string, unknown>;
  to: Record<string, unknown>;
  shape: Shape | null;
}

function emptyLike(value: object): Record<string, unknown> {
  return (Array.isArray(value) ? [] : {}) as Record<string, unknown>;
}

/** Whether `key` of `object` is an image's data, which no text rule may touch (image-data.ts says why). */
function isImageBytes(object: Record<string, unknown>, key: string, text: string): boolean {
  return key === "data" && object.type === "image" && isImageData(text);
}

/**
 * Sets a member of a copy. A key that redacting made equal to one already there (two secrets masked alike)
 * gets a number, so no value is lost under it; `__proto__`, which JSON.parse makes an own key, stays one.
 */
function setMember(to: Record<string, unknown>, key: string, value: unknown): void {
  let name = key;
  for (let n = 2; Object.hasOwn(to, name); n++) name = `${key} (${n})`;
  if (name === "__proto__") Object.defineProperty(to, name, { value, enumerable: true, writable: true, configurable: true });
  else to[name] = value;
}

/** A deep copy of a parsed JSONL line with its strings passed through `visit`. */
export function mapJsonStrings(value: unknown, visit: StringVisitor): unknown {
  // an explicit stack: session values can nest deeper than the call stack allows
  if (typeof value === "string") return visit(value, null, null, false);
  if (value === null || typeof value !== "object") return value;
  const root = emptyLike(value);
  const stack: Frame[] = [{ from: value as Record<string, unknown>, to: root, parent: null, key: null, array: Array.isArray(value), shape: LINE_SHAPE }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { from, to, array, shape } = frame;
    const structural = !array && shape?.structural ? shape.structural(from) : null;
    const children = !array && shape?.children ? shape.children(from) : null;
    for (const key of Object.keys(from)) {
      const child = from[key];
      const name = array || shape?.fields?.has(key) ? key : visit(key, frame, key, true);
      let copy: unknown;
      if (typeof child === "string") copy = structural?.has(key) || isImageBytes(from, key, child) ? child : visit(child, frame, key, false);
      else if (child !== null && typeof child === "object") {
        copy = emptyLike(child);
        const childShape = (array ? shape?.items : children?.get(key)) ?? null;
        stack.push({
          from: child as Record<string, unknown>,
          to: copy as Record<string, unknown>,
          parent: frame,
          key,
          array: Array.isArray(child),
          shape: childShape,
        });
      } else copy = child;
      if (array) to[key] = copy;
      else setMember(to, name, copy);
    }
  }
  return root;
}

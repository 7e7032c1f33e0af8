import type { JsonObject } from "./types";

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

/** pi compares timestamps through `new Date(x).getTime()`; NaN for anything unparsable. */
export function timeOf(value: unknown): number {
  return new Date(value as string).getTime();
}

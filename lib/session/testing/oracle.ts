// What the differential tests share: pi's modules loaded by file path (the package roots do not load on
// Node 20), the shapes of the parts they call, and how our answers are compared with pi's.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "vitest";
import { SessionQueryError } from "../index";
import { stableStringify } from "./golden";
import type { WrittenEntry } from "./random-session";

const REPO = path.resolve(__dirname, "../../..");

/** file:// URL of a file inside node_modules, for `import()` */
export const moduleUrl = (file: string) => pathToFileURL(path.join(REPO, "node_modules", file)).href;

export interface PiContext {
  messages: unknown[];
  model: unknown;
  thinkingLevel: unknown;
  activeToolNames?: unknown;
}

/** pi-coding-agent's dist/core/session-manager.js, for any version's SessionManager shape */
export interface CaModule<Manager> {
  SessionManager: {
    new (cwd: string, sessionDir: string, sessionFile: string, persist: boolean, newSessionOptions: undefined, preloadedFileEntries: unknown[]): Manager;
    create(cwd: string, sessionDir: string): Manager;
    open(file: string, sessionDir?: string): Manager;
  };
  buildContextEntries(entries: WrittenEntry[], leafId: string | null, byId?: Map<string, WrittenEntry>): WrittenEntry[];
  buildSessionContext(entries: WrittenEntry[], leafId: string | null, byId?: Map<string, WrittenEntry>): PiContext;
  loadEntriesFromFile(file: string): unknown[];
}

export const jsonRound = (value: unknown) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/**
 * Equal after a JSON round trip (key order and `undefined` fields do not
 * count). Cheap when equal: only a mismatch goes through `expect`, for its diff.
 */
export function sameJson(actual: unknown, expected: unknown, where: string): void {
  if (actual === expected) return;
  if (typeof actual === "object" && typeof expected === "object" && actual !== null && expected !== null) {
    if (JSON.stringify(actual) === JSON.stringify(expected) || stableStringify(actual) === stableStringify(expected)) return;
  }
  expect(jsonRound(actual), where).toEqual(jsonRound(expected));
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** A query's answer or the error pi and we both throw for bad input; anything else is a bug and rethrown. */
export async function settle<T>(run: () => T | Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof SessionQueryError || (error instanceof Error && error.name === "SessionError")) return { ok: false, error: error.message };
    throw error;
  }
}

export const ids = (entries: readonly { id: string }[]) => entries.map((e) => e.id);

/** entries as JSONL, as pi writes them */
export const serialize = (lines: readonly unknown[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join("");

/**
 * Test support: reading the shared fixtures and their goldens (computed by pi's
 * own code, see shared/spec/goldens.md) and turning our answers into the
 * goldens' vocabulary. Node-only; used by tests, never by the app.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ContextMessage, Session } from "../index";

export const SHARED_DIR = path.resolve(process.env.PI_SHARED_DIR ?? path.join(__dirname, "../../../../shared"));
export const FIXTURES_DIR = path.join(SHARED_DIR, "fixtures");

export interface Fixture {
  name: string;
  file: string;
  goldenFile: string;
}

export function listFixtures(): Fixture[] {
  if (!existsSync(FIXTURES_DIR)) throw new Error(`shared fixtures not found at ${FIXTURES_DIR} (set PI_SHARED_DIR)`);
  const out: Fixture[] = [];
  for (const dir of [FIXTURES_DIR, path.join(FIXTURES_DIR, "real")]) {
    const manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as
      { name?: string; file: string; golden?: string }[] | { files: { file: string; golden: string; name?: string }[] };
    const items = Array.isArray(manifest) ? manifest : manifest.files;
    for (const item of items) {
      const goldenRel = item.golden ?? `golden/${item.file.replace(/\.jsonl$/, ".golden.json")}`;
      out.push({ name: item.name ?? item.file.replace(/\.jsonl$/, ""), file: path.join(dir, item.file), goldenFile: path.join(dir, goldenRel) });
    }
  }
  return out;
}

/** sha256 of items joined by "\n", first 16 hex digits; objects as key-sorted JSON. */
export function goldenHash(items: unknown[]): string {
  const text = items.map((item) => (typeof item === "string" ? item : stableStringify(item))).join("\n");
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/**
 * Names for ids as the goldens write them. pi gives v1 entries random ids, the
 * goldens call them `v1:<k>`; everything else keeps its id.
 */
export function idNamer(session: Session, migratedFromV1: boolean): { name(id: string): string; id(name: string): string } {
  if (!migratedFromV1) return { name: (id) => id, id: (name) => name };
  const toName = new Map<string, string>();
  const toId = new Map<string, string>();
  session.tree.entries.forEach((entry, k) => {
    if (typeof entry.id === "string") {
      toName.set(entry.id, `v1:${k}`);
      toId.set(`v1:${k}`, entry.id);
    }
  });
  return { name: (id) => toName.get(id) ?? id, id: (name) => toId.get(name) ?? name };
}

/**
 * Our context messages in the goldens' form: "=<id>" for a message stored in
 * the file and unchanged, "=<id>#retainedTail[i]" for a retained-tail item,
 * the object itself for what pi synthesizes (or changed, like a migration).
 */
export function goldenMessages(messages: ContextMessage[], session: Session, original: Map<number, string>, name: (id: string) => string): unknown[] {
  return messages.map((m) => {
    if (m.source === "retainedTail") return `=${name(m.entryId)}#retainedTail[${m.tailIndex}]`;
    if (m.source === "stored" && original.get(session.tree.node(m.entryId)!.line) === jsonOf(m.message)) return `=${name(m.entryId)}`;
    return JSON.parse(jsonOf(m.message));
  });
}

const jsonCache = new WeakMap<object, string>();
function jsonOf(value: object): string {
  let text = jsonCache.get(value);
  if (text === undefined) jsonCache.set(value, (text = JSON.stringify(value)));
  return text;
}

/** The message objects of the file exactly as written, by physical line, as JSON text. */
export function originalMessages(text: string): Map<number, string> {
  const out = new Map<number, string>();
  text.split("\n").forEach((line, i) => {
    try {
      const value = JSON.parse(line);
      if (value && typeof value === "object" && value.message !== undefined) out.set(i + 1, JSON.stringify(value.message));
    } catch {
      // unparsable lines hold no message
    }
  });
  return out;
}

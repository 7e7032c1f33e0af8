// The viewer builds its index from light lines (long strings cut, light-lines.ts) and reads content from the
// kept bytes. Every answer must be the one the full text gives: checked here on the shared fixtures, the e2e
// sessions and the bench generator's output, each also "stretched" (every string made long enough to be cut,
// with escapes and multi-byte characters), read in uneven chunks.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateSession } from "../../bench/generate";
import { transcriptHtml } from "../export/html-transcript";
import { CUT_KEEP, CUT_OVER, ElidedLines, LightReader, cutLine, ByteSink } from "./light-lines";
import { readLight } from "./light-session";
import { SchemaLineChecker } from "./schema-lines";
import { compareNodes, searchSession, Session, statsFor, type Reader } from "./index";
import { transcriptMarkdown } from "./transcript";
import { listFixtures } from "./testing/golden";
import { prng } from "./testing/prng";

const encoder = new TextEncoder();
const E2E_SESSIONS = path.resolve(__dirname, "../../e2e/fixtures/sessions");
/** entries checked one by one per file (all of a small file; a seeded sample of a big one) */
const PER_FILE = 16;
/** of which this many also get both transcripts (each reads the whole path) */
const TRANSCRIPTS = 4;

/** Long tails for strings: escapes, quotes, multi-byte characters and an astral one, past CUT_OVER. */
const TAILS = Array.from({ length: 64 }, (_, seed) => {
  const pieces = ['say "hi"\n', "tab\there ", "back\\slash ", "é ü ß ", "漢字 ", "😀 ", "\u2028", "plain words and more words "];
  const rand = prng(seed);
  let out = "";
  let bytes = 0;
  while (bytes < CUT_OVER + 200) {
    const piece = pieces[Math.floor(rand() * pieces.length)]!;
    out += piece;
    bytes += encoder.encode(piece).length;
  }
  return out;
});

function tail(n: number): string {
  return TAILS[n % TAILS.length]!;
}

/** Every string value of every valid line made long (ids too: the index must still read them whole). */
function stretch(text: string): string {
  let n = 0;
  const grow = (value: unknown, key: string): unknown => {
    if (typeof value === "string") return value.length > 0 && !["type", "role", "timestamp", "id", "parentId", "targetId", "firstKeptEntryId"].includes(key) ? value + tail(n++) : value;
    if (Array.isArray(value)) return value.map((v) => grow(v, key));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, grow(v, k)]));
    return value;
  };
  return text
    .split("\n")
    .map((line, i) => {
      if (i === 0) return line; // the header
      try {
        return JSON.stringify(grow(JSON.parse(line), ""));
      } catch {
        return line;
      }
    })
    .join("\n");
}

interface Case {
  name: string;
  text: string;
}

let made: Case[] | null = null;

function cases(): Case[] {
  return (made ??= makeCases());
}

function makeCases(): Case[] {
  const out: Case[] = [];
  for (const fixture of listFixtures()) {
    const text = readFileSync(fixture.file, "utf8");
    out.push({ name: fixture.name, text }, { name: `${fixture.name} stretched`, text: stretch(text) });
  }
  for (const file of readdirSync(E2E_SESSIONS, { recursive: true }).map(String).filter((f) => f.endsWith(".jsonl"))) {
    const text = readFileSync(path.join(E2E_SESSIONS, file), "utf8");
    out.push({ name: `e2e ${path.basename(file)}`, text }, { name: `e2e ${path.basename(file)} stretched`, text: stretch(text) });
  }
  out.push({ name: "generated 1500", text: generateSession({ entries: 1500, seed: 7, hugeResultEvery: 40, hugeResultChars: 200_000, imageChance: 0.05 }) });
  return out;
}

function idsOf(session: Session): string[] {
  const ids = [...session.tree.byId.keys()];
  if (ids.length <= PER_FILE) return ids;
  const rand = prng(ids.length);
  const chosen = new Set<string>();
  if (session.leafId) chosen.add(session.leafId);
  chosen.add(ids[ids.length - 1]!);
  while (chosen.size < PER_FILE) chosen.add(ids[Math.floor(rand() * ids.length)]!);
  return [...chosen];
}

/** The answer, or the error's message: a query that throws must throw the same in both. */
function outcome<T>(run: () => T): T | { error: string } {
  try {
    return run();
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const FORK = { sessionId: "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000", timestamp: "2026-02-01T00:00:00.000Z", sourcePath: "/tmp/source.jsonl", labelId: (taken: Set<string>) => `l${taken.size.toString(16).padStart(7, "0")}` };

function sameAnswers(full: Session, light: Session, where: string): void {
  expect(light.parser.lineKinds, where).toEqual(full.parser.lineKinds);
  expect(light.diagnostics(), where).toEqual(full.diagnostics());
  expect(light.header, where).toEqual(full.header);
  expect([light.name, light.leafId, light.reader, light.rules.reason], where).toEqual([full.name, full.leafId, full.reader, full.rules.reason]);
  expect([...light.labels()], where).toEqual([...full.labels()]);
  expect(light.tree.leafHistory, where).toEqual(full.tree.leafHistory);
  expect(light.shape().roots, where).toEqual(full.shape().roots);
  expect(outcome(() => statsFor(light, { kind: "session" })), where).toEqual(outcome(() => statsFor(full, { kind: "session" })));
  for (const query of ["the", "é ü", "漢字", "hi\"", "error"]) expect(searchSession(light, query), `${where} search ${query}`).toEqual(searchSession(full, query));
  const ids = idsOf(full);
  const readers: Reader[] = [full.reader];
  for (const [n, id] of ids.entries()) {
    for (const reader of readers) {
      const at = `${where} @${id} (${reader})`;
      expect(outcome(() => light.branch(id, reader).map((e) => e.id)), at).toEqual(outcome(() => full.branch(id, reader).map((e) => e.id)));
      expect(outcome(() => light.context(id, reader)), at).toEqual(outcome(() => full.context(id, reader)));
      expect(outcome(() => light.fork(id, FORK, reader).text), at).toEqual(outcome(() => full.fork(id, FORK, reader).text));
      if (n < TRANSCRIPTS) {
        expect(outcome(() => transcriptMarkdown(light, id, { reader })), at).toEqual(outcome(() => transcriptMarkdown(full, id, { reader })));
        expect(outcome(() => transcriptHtml(light, id, { reader })), at).toEqual(outcome(() => transcriptHtml(full, id, { reader })));
      }
      expect(outcome(() => statsFor(light, { kind: "branch", id })), at).toEqual(outcome(() => statsFor(full, { kind: "branch", id })));
    }
    expect(light.tree.full(light.tree.get(id)!), where).toEqual(full.tree.get(id));
  }
  const [a, b] = [ids[0], ids[ids.length - 1]];
  if (a && b) expect(outcome(() => compareNodes(light, a, b)), where).toEqual(outcome(() => compareNodes(full, a, b)));
}

describe("light lines", () => {
  it("cut a long string to a prefix ending on a whole character, and keep everything else", () => {
    const long = `${"ab".repeat(CUT_KEEP / 2 - 1)}é${"x".repeat(CUT_OVER)}`;
    const line = JSON.stringify({ type: "message", id: "a1", message: { role: "user", content: [{ type: "text", text: long }] } });
    const out = new ByteSink();
    expect(cutLine(encoder.encode(line), 0, encoder.encode(line).length, out)).toBe(true);
    const light = JSON.parse(new TextDecoder().decode(out.view()));
    const text: string = light.message.content[0].text;
    expect(text.endsWith("…")).toBe(true);
    expect(long.startsWith(text.slice(0, -1))).toBe(true);
    expect(encoder.encode(text.slice(0, -1)).length).toBeLessThanOrEqual(CUT_KEEP);
    expect({ ...light, message: { ...light.message, content: [{ ...light.message.content[0], text: long }] } }).toEqual(JSON.parse(line));
  });

  it("never cut the values the index reads, nor a line that is not valid JSON", () => {
    const big = "z".repeat(CUT_OVER * 2);
    const out = new ByteSink();
    for (const line of [
      JSON.stringify({ type: "label", id: big, parentId: big, targetId: big, label: big }),
      JSON.stringify({ type: "session_info", id: "a", name: big }),
      `{"type":"message","id":"a","message":{"role":"user","content":"${big}\u0001"}}`,
      `{"type":"message","id":"a","message":{"role":"user","content":"${big}\\x"}}`,
      `{"type":"message","id":"a","message":{"role":"user","content":"${big}`,
    ]) {
      const bytes = encoder.encode(line);
      expect(cutLine(bytes, 0, bytes.length, out), line.slice(0, 80)).toBe(false);
      expect(out.length).toBe(0);
    }
  });

  it("split lines where SessionParser does, whatever the chunk size, and keep the cut lines' bytes", () => {
    const text = stretch(generateSession({ entries: 300, seed: 3 }));
    const bytes = encoder.encode(text);
    for (const size of [1, 7, 4096, 1 << 20]) {
      const reader = new LightReader(size);
      const lines = new ElidedLines();
      let light = "";
      for (let at = 0; at < bytes.length; at += size) {
        const chunk = reader.push(bytes.subarray(at, at + size));
        if (chunk) {
          lines.add(chunk);
          light += chunk.text;
        }
      }
      const rest = reader.flush();
      if (rest) {
        lines.add(rest);
        light += rest.text;
      }
      light += reader.end();
      const fullLines = text.split("\n");
      const lightLines = light.split("\n");
      expect(lightLines.length, `chunk ${size}`).toBe(fullLines.length);
      expect(lines.size, `chunk ${size}`).toBeGreaterThan(200);
      for (let i = 0; i < fullLines.length; i++) expect(lines.has(i + 1) ? lines.text(i + 1) : lightLines[i], `chunk ${size} line ${i + 1}`).toBe(fullLines[i]);
    }
  });

  it("give the worker's schema check the same issues as the full text", () => {
    for (const { name, text } of cases()) {
      const bytes = encoder.encode(text);
      const reader = new LightReader(4096);
      const light = new SchemaLineChecker();
      for (let at = 0; at < bytes.length; at += 4096) {
        const chunk = reader.push(bytes.subarray(at, at + 4096));
        if (chunk) light.push(chunk.text);
      }
      const rest = reader.flush();
      if (rest) light.push(rest.text);
      const full = new SchemaLineChecker();
      full.push(text.slice(0, text.lastIndexOf("\n") + 1));
      expect(light.result(), name).toEqual(full.result());
    }
  });
});

describe("a session read from light lines answers as the full text does", () => {
  it.each(cases())("$name", ({ name, text }) => {
    const full = Session.fromText(text);
    const bytes = encoder.encode(text);
    const chunk = 1 + (text.length % 9973);
    const light = new Session(readLight(bytes, chunk, 1 << 14));
    if (CUT_OVER < text.length && name.endsWith("stretched")) expect(light.tree.hasCutEntries || light.parser.sourceVersion !== 3 || light.parser.isV4Log, name).toBe(true);
    sameAnswers(full, light, name);
  }, 300_000);
});

// The viewer builds its index from light lines (long strings cut, light-lines.ts) and reads content from the
// kept bytes. Every answer must be the one the full text gives: checked here on the shared fixtures, the e2e
// sessions and the bench generator's output, each also "stretched" (every string made long enough to be cut,
// with escapes and multi-byte characters), read in uneven chunks.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateSession } from "../../../bench/generate";
import { transcriptHtml } from "../../export/html-transcript";
import { ElidedLines } from "./elided-lines";
import { CUT_KEEP, CUT_OVER, LightReader, LineForm, lightLine, ByteSink } from "./light-lines";
import { readLight } from "./light-session";
import { SchemaLineChecker } from "./schema-lines";
import { compareNodes, searchSession, Session, scopeStats, type RuleSetId } from "..";
import { transcriptMarkdown } from "../features/transcript";
import { listFixtures } from "../testing/golden";
import { prng } from "../testing/prng";

const encoder = new TextEncoder();
const E2E_SESSIONS = path.resolve(__dirname, "../../../e2e/fixtures/sessions");
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
    if (typeof value === "string")
      return value.length > 0 && !["type", "role", "timestamp", "id", "parentId", "targetId", "firstKeptEntryId"].includes(key) ? value + tail(n++) : value;
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
  for (const file of readdirSync(E2E_SESSIONS, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".jsonl"))) {
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

const FORK = {
  sessionId: "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000",
  timestamp: "2026-02-01T00:00:00.000Z",
  sourcePath: "/tmp/source.jsonl",
  labelId: (taken: Set<string>) => `l${taken.size.toString(16).padStart(7, "0")}`,
};

function sameAnswers(full: Session, light: Session, where: string): void {
  expect(light.parser.lineKinds, where).toEqual(full.parser.lineKinds);
  expect(light.diagnostics(), where).toEqual(full.diagnostics());
  expect(light.header, where).toEqual(full.header);
  expect([light.name, light.leafId, light.reader, light.rulesChoice.reason], where).toEqual([full.name, full.leafId, full.reader, full.rulesChoice.reason]);
  expect([...light.labels()], where).toEqual([...full.labels()]);
  expect(light.tree.leafHistory, where).toEqual(full.tree.leafHistory);
  expect(light.shape().roots, where).toEqual(full.shape().roots);
  expect(
    outcome(() => scopeStats(light, { kind: "session" })),
    where,
  ).toEqual(outcome(() => scopeStats(full, { kind: "session" })));
  for (const query of ["the", "é ü", "漢字", 'hi"', "error"])
    expect(searchSession(light, query), `${where} search ${query}`).toEqual(searchSession(full, query));
  const ids = idsOf(full);
  const readers: RuleSetId[] = [full.reader];
  for (const [n, id] of ids.entries()) {
    for (const reader of readers) {
      const at = `${where} @${id} (${reader})`;
      expect(
        outcome(() => light.branch(id, reader).map((e) => e.id)),
        at,
      ).toEqual(outcome(() => full.branch(id, reader).map((e) => e.id)));
      expect(
        outcome(() => light.context(id, reader)),
        at,
      ).toEqual(outcome(() => full.context(id, reader)));
      expect(
        outcome(() => light.fork(id, FORK, reader).text),
        at,
      ).toEqual(outcome(() => full.fork(id, FORK, reader).text));
      if (n < TRANSCRIPTS) {
        expect(
          outcome(() => transcriptMarkdown(light, id, { reader })),
          at,
        ).toEqual(outcome(() => transcriptMarkdown(full, id, { reader })));
        expect(
          outcome(() => transcriptHtml(light, id, { reader })),
          at,
        ).toEqual(outcome(() => transcriptHtml(full, id, { reader })));
      }
      expect(
        outcome(() => scopeStats(light, { kind: "branch", id })),
        at,
      ).toEqual(outcome(() => scopeStats(full, { kind: "branch", id })));
    }
    expect(light.tree.full(light.tree.get(id)!), where).toEqual(full.tree.get(id));
  }
  const [a, b] = [ids[0], ids[ids.length - 1]];
  if (a && b)
    expect(
      outcome(() => compareNodes(light, a, b)),
      where,
    ).toEqual(outcome(() => compareNodes(full, a, b)));
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** All the light text a LightReader makes of `bytes` read in `size`-byte chunks, and its ElidedLines. */
function readAll(bytes: Uint8Array, size: number): { light: string; lines: ElidedLines } {
  const reader = new LightReader(size);
  const lines = new ElidedLines();
  let light = "";
  const take = (chunk: ReturnType<LightReader["push"]>) => {
    if (!chunk) return;
    lines.add(chunk);
    light += decoder.decode(chunk.light);
  };
  for (let at = 0; at < bytes.length; at += size) take(reader.push(bytes.subarray(at, at + size)));
  take(reader.flush());
  return { light: light + reader.end(), lines };
}

describe("light lines", () => {
  it("cut a long string to a prefix ending on a whole character, and keep everything else", () => {
    const long = `${"ab".repeat(CUT_KEEP / 2 - 1)}é${"x".repeat(CUT_OVER)}`;
    const line = JSON.stringify({ type: "message", id: "a1", message: { role: "user", content: [{ type: "text", text: long }] } });
    const out = new ByteSink();
    expect(lightLine(encoder.encode(line), 0, encoder.encode(line).length, out)).toBe(LineForm.Cut);
    const light = JSON.parse(decoder.decode(out.view()));
    const text: string = light.message.content[0].text;
    expect(text.endsWith("…")).toBe(true);
    expect(long.startsWith(text.slice(0, -1))).toBe(true);
    expect(encoder.encode(text.slice(0, -1)).length).toBeLessThanOrEqual(CUT_KEEP);
    expect({ ...light, message: { ...light.message, content: [{ ...light.message.content[0], text: long }] } }).toEqual(JSON.parse(line));
  });

  it("write every other character as an escape, so a valid line becomes ASCII and parses the same", () => {
    const value = { type: "message", id: "é1", message: { role: "user", content: 'naïve → 漢字 😀 \u2028 "q" \\ tab\t', clé: ["ü", 1, null] } };
    const line = encoder.encode(JSON.stringify(value));
    const out = new ByteSink();
    expect(lightLine(line, 0, line.length, out)).toBe(LineForm.Escaped);
    expect(out.view().every((b) => b < 0x80)).toBe(true);
    expect(JSON.parse(decoder.decode(out.view()))).toEqual(value);
    const ascii = encoder.encode(JSON.stringify({ type: "message", id: "a", message: { role: "user", content: "plain" } }));
    const plain = new ByteSink();
    expect(lightLine(ascii, 0, ascii.length, plain)).toBe(LineForm.Same);
    expect(plain.view()).toEqual(ascii);
  });

  it("leave bytes that are not UTF-8 for the decoder to replace as it does in the full text", () => {
    // truncated sequences, an encoded surrogate, an overlong form, a stray continuation byte, next to valid characters
    const prefix = encoder.encode('{"type":"message","id":"a","message":{"role":"user","content":"é');
    const bad = [0xe2, 0x82, 0xc3, 0xa9, 0xed, 0xa0, 0x80, 0x41, 0xc0, 0xaf, 0xf0, 0x9f, 0x98, 0x80, 0xf0, 0x90, 0x80, 0xe2, 0x80, 0xa6, 0xbf];
    const suffix = encoder.encode('"}}');
    const line = new Uint8Array([...prefix, ...bad, ...suffix]);
    const out = new ByteSink();
    expect(lightLine(line, 0, line.length, out)).toBe(LineForm.Escaped);
    expect(JSON.parse(decoder.decode(out.view()))).toEqual(JSON.parse(decoder.decode(line)));
  });

  it("never cut the values the index reads, nor rewrite a line that is not valid JSON", () => {
    const big = "z".repeat(CUT_OVER * 2);
    for (const line of [
      JSON.stringify({ type: "label", id: big, parentId: big, targetId: big, label: big }),
      JSON.stringify({ type: "session_info", id: "a", name: big }),
    ]) {
      const bytes = encoder.encode(line);
      const out = new ByteSink();
      expect(lightLine(bytes, 0, bytes.length, out), line.slice(0, 80)).toBe(LineForm.Same);
      expect(out.view()).toEqual(bytes);
    }
    for (const line of [
      `{"type":"message","id":"a","message":{"role":"user","content":"${big}é\u0001"}}`,
      `{"type":"message","id":"a","message":{"role":"user","content":"${big}é\\x"}}`,
      `{"type":"message","id":"a","message":{"role":"user","content":"${big}é`,
      `{"type":"message","id":"é","message":{"role":"user","content":"${big}"} ü}`,
      `\ufeff{"type":"message","id":"é"}`,
    ]) {
      const bytes = encoder.encode(line);
      const out = new ByteSink();
      expect(lightLine(bytes, 0, bytes.length, out), line.slice(0, 80)).toBe(LineForm.Same);
      expect(out.view()).toEqual(bytes);
    }
  });

  it("split lines where SessionParser does, whatever the chunk size, and keep the changed lines' bytes", () => {
    const text = stretch(generateSession({ entries: 300, seed: 3 }));
    const bytes = encoder.encode(text);
    for (const size of [1, 7, 4096, 1 << 20]) {
      const { light, lines } = readAll(bytes, size);
      const fullLines = text.split("\n");
      const lightLines = light.split("\n");
      expect(lightLines.length, `chunk ${size}`).toBe(fullLines.length);
      expect(lines.cutCount, `chunk ${size}`).toBeGreaterThan(200);
      for (let i = 0; i < fullLines.length; i++) {
        const at = `chunk ${size} line ${i + 1}`;
        expect(lines.has(i + 1) ? lines.text(i + 1) : lightLines[i], at).toBe(fullLines[i]);
        if (!lines.isCut(i + 1) && i < fullLines.length - 1) expect(JSON.parse(lightLines[i]!), at).toEqual(JSON.parse(fullLines[i]!));
      }
      expect(
        [...light.slice(0, light.lastIndexOf("\n"))].every((c) => c.charCodeAt(0) < 0x80),
        `chunk ${size}: light text is ASCII`,
      ).toBe(true);
    }
  });

  it("read lines where they are: a chunk with changed lines is kept as pushed, only a line that spans chunks is copied", () => {
    const bytes = encoder.encode(stretch(generateSession({ entries: 60, seed: 5 })));
    const reader = new LightReader(1);
    const pushed = new Set<Uint8Array>();
    const raws: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += 1 << 16) {
      const part = bytes.subarray(at, at + (1 << 16));
      pushed.add(part);
      raws.push(...(reader.push(part)?.raws ?? []));
    }
    raws.push(...(reader.flush()?.raws ?? []));
    const copies = raws.filter((raw) => !pushed.has(raw));
    expect(raws.length - copies.length).toBeGreaterThan(0);
    expect(copies.length).toBeGreaterThan(0);
    // a copy is one whole line: the one that spanned chunks
    for (const copy of copies) expect(copy.indexOf(0x0a)).toBe(copy.length - 1);
  });

  it("decode light lines in pieces at line ends, a line longer than a piece and lines with other characters included", () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const entry = (i: number) =>
      JSON.stringify({
        type: "message",
        id: `m${i}`,
        parentId: i ? `m${i - 1}` : null,
        timestamp: "2026-01-01T00:00:01.000Z",
        message: { role: "user", content: `line ${i} é 漢字` },
      });
    const broken = `{"type":"message","id":"x","note":"ü ${"z".repeat(70_000)}" "message":{}}`;
    const text = [header, ...Array.from({ length: 2000 }, (_, i) => entry(i)), broken, entry(2000), ""].join("\n");
    const full = Session.fromText(text);
    const light = new Session(readLight(encoder.encode(text)));
    expect(light.tree.size).toBe(2001);
    expect(light.diagnostics()).toEqual(full.diagnostics());
    expect(light.diagnostics().some((d) => d.line === 2002)).toBe(true);
    expect(light.context("m2000").messages).toEqual(full.context("m2000").messages);
  });

  it("report a broken line that was escaped with the full line's error, positions and all", () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const text = `${header}\n{"type":"message","id":"é1","parentId":null "message":{"role":"user","content":"ü"}}\n{"type":"message","id":"b","parentId":null,"message":{"role":"user","content":"漢字"}}\n`;
    const full = Session.fromText(text);
    const light = new Session(readLight(encoder.encode(text)));
    expect(full.diagnostics()[0]!.message).toMatch(/position \d+/);
    expect(light.diagnostics()).toEqual(full.diagnostics());
  });

  it("give the worker's schema check the same issues as the full text", () => {
    for (const { name, text } of cases()) {
      const bytes = encoder.encode(text);
      const { light } = readAll(bytes, 4096);
      const checker = new SchemaLineChecker();
      checker.push(light.slice(0, light.lastIndexOf("\n") + 1));
      const full = new SchemaLineChecker();
      full.push(text.slice(0, text.lastIndexOf("\n") + 1));
      expect(checker.result(), name).toEqual(full.result());
    }
  });
});

describe("a session read from light lines answers as the full text does", () => {
  it.each(cases())(
    "$name",
    ({ name, text }) => {
      const full = Session.fromText(text);
      const bytes = encoder.encode(text);
      const chunk = 1 + (text.length % 9973);
      const light = new Session(readLight(bytes, chunk, 1 << 14));
      if (CUT_OVER < text.length && name.endsWith("stretched"))
        expect(light.tree.hasCutEntries || light.parser.sourceVersion !== 3 || light.parser.isV4Log, name).toBe(true);
      sameAnswers(full, light, name);
    },
    300_000,
  );
});

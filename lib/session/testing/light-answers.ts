// What the light index must answer as the full text does: the sessions it is checked on (the shared fixtures, the
// e2e sessions and the bench generator's output, each also "stretched": every string made long enough to be cut,
// with escapes and multi-byte characters) and the comparison of two Sessions read from the same text.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { generateSession } from "../../../bench/generate";
import { CUT_OVER } from "../read/light-lines";
import { compareNodes, searchSession, Session, scopeStats, type RuleSetId } from "..";
import { transcriptMarkdown } from "../../export/markdown-transcript";
import { transcriptOf } from "../features/transcript-model";
import { listFixtures } from "./golden";
import { Rng } from "./rng";

const encoder = new TextEncoder();
const E2E_SESSIONS = path.resolve(__dirname, "../../../e2e/fixtures/sessions");
/** entries checked one by one per file (all of a small file; a seeded sample of a big one) */
const PER_FILE = 16;
/** of which this many also get both transcripts (each reads the whole path) */
const TRANSCRIPTS = 4;

/** Long tails for strings: escapes, quotes, multi-byte characters and an astral one, past CUT_OVER. */
const TAILS = Array.from({ length: 64 }, (_, seed) => {
  const pieces = ['say "hi"\n', "tab\there ", "back\\slash ", "é ü ß ", "漢字 ", "😀 ", "\u2028", "plain words and more words "];
  const rng = new Rng(seed);
  let out = "";
  let bytes = 0;
  while (bytes < CUT_OVER + 200) {
    const piece = pieces[rng.int(pieces.length)]!;
    out += piece;
    bytes += encoder.encode(piece).length;
  }
  return out;
});

function tail(n: number): string {
  return TAILS[n % TAILS.length]!;
}

/** Every string value of every valid line made long (ids too: the index must still read them whole). */
export function stretch(text: string): string {
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

export interface Case {
  name: string;
  text: string;
}

let made: Case[] | null = null;

export function cases(): Case[] {
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
  const ids = [...session.tree.ids()];
  if (ids.length <= PER_FILE) return ids;
  const rng = new Rng(ids.length);
  const chosen = new Set<string>();
  if (session.leafId) chosen.add(session.leafId);
  chosen.add(ids[ids.length - 1]!);
  while (chosen.size < PER_FILE) chosen.add(ids[rng.int(ids.length)]!);
  return [...chosen];
}

const FORK = {
  sessionId: "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000",
  timestamp: "2026-02-01T00:00:00.000Z",
  sourcePath: "/tmp/source.jsonl",
  labelId: (taken: Set<string>) => `l${taken.size.toString(16).padStart(7, "0")}`,
};

/**
 * Checks that `light` answers every question as `full` does. `onDemand`: `light` reads its content from the file
 * when asked (RangedLines), so each answer is asked for through Session.withContent.
 */
export async function sameAnswers(full: Session, light: Session, where: string, onDemand = false): Promise<void> {
  const ask = async <T>(session: Session, run: () => T): Promise<T | { error: string }> => {
    try {
      return onDemand && session === light ? await session.withContent(run) : run();
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
  const same = async <T>(run: (session: Session) => T, at: string) => expect(await ask(light, () => run(light)), at).toEqual(await ask(full, () => run(full)));
  expect(light.parser.lineKinds.list(), where).toEqual(full.parser.lineKinds.list());
  expect(light.diagnostics(), where).toEqual(full.diagnostics());
  expect(light.header, where).toEqual(full.header);
  expect([light.name, light.leafId, light.reader, light.rulesChoice.reason], where).toEqual([full.name, full.leafId, full.reader, full.rulesChoice.reason]);
  expect([...light.labels()], where).toEqual([...full.labels()]);
  expect([...light.tree.leafHistory], where).toEqual([...full.tree.leafHistory]);
  expect(light.shape().roots, where).toEqual(full.shape().roots);
  await same((s) => scopeStats(s, { kind: "session" }), where);
  for (const query of ["the", "é ü", "漢字", 'hi"', "error"]) await same((s) => searchSession(s, query), `${where} search ${query}`);
  const ids = idsOf(full);
  const readers: RuleSetId[] = [full.reader];
  for (const [n, id] of ids.entries()) {
    for (const reader of readers) {
      const at = `${where} @${id} (${reader})`;
      await same((s) => s.branch(id, reader).map((e) => e.id), at);
      await same((s) => s.context(id, reader), at);
      await same((s) => s.fork(id, FORK, reader).text, at);
      if (n < TRANSCRIPTS) {
        await same((s) => transcriptMarkdown(s, id, { reader }), at);
        // (the HTML transcript is drawn from this model alone)
        await same((s) => transcriptOf(s, id, { reader }), at);
      }
      await same((s) => scopeStats(s, { kind: "branch", id }), at);
    }
    await same((s) => s.tree.full(s.tree.get(id)!), where);
  }
  const [a, b] = [ids[0], ids[ids.length - 1]];
  if (a && b) await same((s) => compareNodes(s, a, b), where);
}

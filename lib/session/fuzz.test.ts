// Byte-level fuzzing of every fixture through the path the app reads files by (UTF-8 decoder with the BOM
// kept, lines split at arbitrary chunk boundaries): nothing throws, every line is accounted for, and every
// well-formed entry line survives into the tree. FUZZ_SEED replays a run, FUZZ_SCALE multiplies the rounds.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { LineReader, Session, SessionParser, SessionQueryError } from "./index";
import { listFixtures } from "./testing/golden";
import { Rng } from "./testing/rng";

const SEED = Number(process.env.FUZZ_SEED ?? 6_2026_12_02);
const SCALE = Math.max(1, Number(process.env.FUZZ_SCALE ?? 1));
/** rounds per fixture: 150 for small files; big ones get fewer (each round re-reads the whole file twice), never under 4 */
const BYTES_PER_FIXTURE = 6_000_000;
function roundsFor(size: number): number {
  return SCALE * Math.max(4, Math.min(150, Math.floor(BYTES_PER_FIXTURE / Math.max(size, 1))));
}
const counts = { mutations: 0, byKind: {} as Record<string, number>, queries: 0, typedRefusals: 0 };

type Mutation = (bytes: Uint8Array, rng: Rng) => Uint8Array;

const NL = 0x0a;

function lineStarts(bytes: Uint8Array): number[] {
  const out = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === NL && i + 1 < bytes.length) out.push(i + 1);
  return out;
}

/** [start, end) of each line, the end excluding its "\n" */
function lineSpans(bytes: Uint8Array): [number, number][] {
  const starts = lineStarts(bytes);
  return starts.map((s, k) => {
    const next = k + 1 < starts.length ? starts[k + 1]! - 1 : bytes.length;
    return [s, next];
  });
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function insertAt(bytes: Uint8Array, at: number, insert: number[]): Uint8Array {
  return concat([bytes.subarray(0, at), Uint8Array.from(insert), bytes.subarray(at)]);
}

function randomLine(bytes: Uint8Array, rng: Rng): [number, number] {
  const spans = lineSpans(bytes);
  return rng.pick(spans);
}

function withLines(bytes: Uint8Array, rng: Rng, edit: (lines: Uint8Array[], rng: Rng) => Uint8Array[]): Uint8Array {
  const spans = lineSpans(bytes);
  const endsWithNl = bytes[bytes.length - 1] === NL;
  const lines = edit(
    spans.map(([s, e]) => bytes.subarray(s, e)),
    rng,
  );
  const parts: Uint8Array[] = [];
  lines.forEach((line, i) => {
    parts.push(line);
    if (i < lines.length - 1 || endsWithNl) parts.push(Uint8Array.of(NL));
  });
  return concat(parts);
}

const INVALID_UTF8: number[][] = [
  [0xff],
  [0xfe],
  [0xc0, 0xaf],
  [0x80],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xc3],
];
const BOM = [0xef, 0xbb, 0xbf];

const mutations: Record<string, Mutation> = {
  bitFlip: (bytes, rng) => {
    const out = bytes.slice();
    const flips = 1 + rng.int(8);
    for (let k = 0; k < flips && out.length > 0; k++) out[rng.int(out.length)]! ^= 1 << rng.int(8);
    return out;
  },
  truncate: (bytes, rng) => bytes.slice(0, rng.int(bytes.length)),
  truncateLine: (bytes, rng) => {
    const [s, e] = randomLine(bytes, rng);
    return concat([bytes.subarray(0, s + rng.int(e - s)), bytes.subarray(e)]);
  },
  duplicateLine: (bytes, rng) =>
    withLines(bytes, rng, (lines) => {
      const i = rng.int(lines.length);
      return [...lines.slice(0, i + 1), lines[i]!, ...lines.slice(i + 1)];
    }),
  swapLines: (bytes, rng) =>
    withLines(bytes, rng, (lines) => {
      const copy = [...lines];
      const i = rng.int(copy.length);
      const j = rng.int(copy.length);
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      return copy;
    }),
  mergeLines: (bytes, rng) =>
    withLines(bytes, rng, (lines) => {
      if (lines.length < 2) return lines;
      const i = rng.int(lines.length - 1);
      return [...lines.slice(0, i), concat([lines[i]!, lines[i + 1]!]), ...lines.slice(i + 2)];
    }),
  dropLine: (bytes, rng) =>
    withLines(bytes, rng, (lines) => {
      const i = rng.int(lines.length);
      return [...lines.slice(0, i), ...lines.slice(i + 1)];
    }),
  invalidUtf8: (bytes, rng) => insertAt(bytes, rng.int(bytes.length + 1), rng.pick(INVALID_UTF8)),
  invalidUtf8InString: (bytes, rng) => {
    // inside a JSON string the line stays valid JSON: the bytes become U+FFFD and the entry must still be kept
    const quotes: number[] = [];
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x22) quotes.push(i);
    const at = quotes.length > 0 ? rng.pick(quotes) + 1 : 0;
    return insertAt(bytes, at, rng.pick(INVALID_UTF8));
  },
  bomAtStart: (bytes) => insertAt(bytes, 0, BOM),
  bomAtLine: (bytes, rng) => insertAt(bytes, randomLine(bytes, rng)[0], BOM),
  crlfAll: (bytes) => {
    const parts: number[] = [];
    for (const b of bytes) {
      if (b === NL) parts.push(0x0d);
      parts.push(b);
    }
    return Uint8Array.from(parts);
  },
  crlfOne: (bytes, rng) => {
    const [, e] = randomLine(bytes, rng);
    return insertAt(bytes, e, [0x0d]);
  },
  loneCr: (bytes, rng) => insertAt(bytes, rng.int(bytes.length + 1), [0x0d]),
  nulByte: (bytes, rng) => insertAt(bytes, rng.int(bytes.length + 1), [0x00]),
  blankLines: (bytes, rng) => insertAt(bytes, randomLine(bytes, rng)[0], rng.pick([[NL], [0x20, NL], [0x09, 0x0d, NL], [NL, NL, NL]])),
  dropFinalNewline: (bytes) => (bytes[bytes.length - 1] === NL ? bytes.slice(0, -1) : bytes),
};

const MUTATION_NAMES = Object.keys(mutations);

/** The app's byte path: a streaming decoder that keeps a BOM, byte chunks of random sizes, the worker's LineReader. */
function parseAsWorker(bytes: Uint8Array, rng: Rng): SessionParser {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const reader = new LineReader();
  const parser = new SessionParser();
  let at = 0;
  while (at < bytes.length) {
    const size = 1 + Math.floor(rng.next() * (rng.next() < 0.5 ? 16 : 4096));
    parser.pushLines(reader.push(decoder.decode(bytes.subarray(at, at + size), { stream: true })));
    at += size;
  }
  parser.pushLines(reader.push(decoder.decode()));
  return parser.end(reader.end());
}

/** The server's path: whole decoded text, pushed as text chunks. */
function parseAsServer(text: string, rng: Rng): SessionParser {
  const parser = new SessionParser();
  let at = 0;
  while (at < text.length) {
    const size = 1 + rng.int(8192);
    parser.push(text.slice(at, at + size));
    at += size;
  }
  return parser.end();
}

function physicalLines(text: string): string[] {
  if (text.length === 0) return [];
  const parts = text.split("\n");
  if (text.endsWith("\n")) parts.pop();
  return parts;
}

function asEntry(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    if (!value || typeof value !== "object" || Array.isArray(value)) return null;
    return (value as Record<string, unknown>).type === "session" ? null : (value as Record<string, unknown>);
  } catch {
    return null;
  }
}

/** Either answers or refuses the way pi does (a SessionQueryError); anything else is a bug. */
function query(context: string, fn: () => unknown): void {
  counts.queries++;
  try {
    fn();
  } catch (error) {
    counts.typedRefusals++;
    expect(error, `${context}: ${String(error)}`).toBeInstanceOf(SessionQueryError);
  }
}

function checkSession(parser: SessionParser, text: string, originalLines: Set<string>, rng: Rng, context: string): void {
  const lines = physicalLines(text);
  const account = parser.account();
  expect(account.total, context).toBe(lines.length);
  expect(account.header + account.entry + account.blank + account.unreadable + account["extra-header"], context).toBe(account.total);
  expect(lines.filter((l) => l.trim() === "").length, `${context}: blank lines`).toBe(account.blank);

  const session = new Session(parser);
  const tree = session.tree;
  const entryLineSet = new Set(tree.entryLines);
  const migrated = parser.sourceVersion !== 3;
  const lastLineOfId = new Map<string, number>();
  lines.forEach((line, i) => {
    const entry = i + 1 === parser.headerLine ? null : asEntry(line);
    if (entry && typeof entry.id === "string" && entry.id !== "") lastLineOfId.set(entry.id, i + 1);
  });
  lines.forEach((line, i) => {
    const n = i + 1;
    if (n === parser.headerLine) return;
    const entry = asEntry(line);
    if (!entry) return;
    expect(parser.lineKinds.at(i), `${context}: line ${n} is read as an entry`).toBe("entry");
    // a v4 mutation log keeps lanes, facts and records out of the tree: only the line account applies to it
    if (parser.isV4Log) return;
    // every JSON object line other than a header is an entry of the session, well-formed or not
    expect(entryLineSet.has(n), `${context}: line ${n} is an entry`).toBe(true);
    const wellFormed = typeof entry.id === "string" && entry.id !== "" && originalLines.has(line.replace(/\r$/, ""));
    if (!wellFormed || migrated) return;
    // a well-formed, unchanged entry line is in the tree under its id, unless a later line took the id over
    const node = tree.node(entry.id as string);
    expect(node, `${context}: line ${n} id ${String(entry.id)} in the tree`).toBeDefined();
    if (lastLineOfId.get(entry.id as string) === n) {
      expect(node!.line, `${context}: line ${n}`).toBe(n);
      expect(node!.entry, `${context}: line ${n}`).toEqual(entry);
    }
  });

  query(`${context} diagnostics`, () => session.diagnostics());
  query(`${context} shape`, () => session.shape());
  // nothing is hidden: every entry hangs below one of the roots drawn (cycles get a stand-in root)
  const reached = new Set<string>();
  const stack = [...session.shape().roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (reached.has(id)) continue;
    reached.add(id);
    stack.push(...tree.children(id));
  }
  expect(reached.size, `${context}: every entry is reached from the roots drawn`).toBe(tree.size);
  query(`${context} leaf context`, () => session.context(session.leafId));
  const ids = [...tree.ids()];
  for (let k = 0; k < Math.min(6, ids.length); k++) {
    const id = rng.pick(ids);
    query(`${context} branch ${id}`, () => session.branch(id));
    query(`${context} ca context ${id}`, () => session.context(id, "ca"));
    query(`${context} hx context ${id}`, () => session.context(id, "hx"));
    query(`${context} fork ${id}`, () => session.fork(id, { timestamp: "2026-01-01T00:00:00.000Z", sessionId: "fuzz" }));
  }
}

const fixtures = listFixtures();

afterAll(() => {
  const kinds = Object.entries(counts.byKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  console.log(
    `fuzz seed ${SEED}: ${counts.mutations} mutated files (${kinds}); ${counts.queries} queries, ${counts.typedRefusals} refused with SessionQueryError`,
  );
});

describe("byte-level fuzzing", () => {
  it.each(fixtures)("$name: never throws, accounts for every line, keeps every well-formed entry", (fixture) => {
    const original = new Uint8Array(readFileSync(fixture.file));
    const originalText = new TextDecoder("utf-8", { ignoreBOM: true }).decode(original);
    const originalLines = new Set(physicalLines(originalText).map((l) => l.replace(/\r$/, "")));
    const rng = new Rng(SEED ^ (hash(fixture.name) >>> 0));
    const rounds = roundsFor(original.length);
    for (let round = 0; round < rounds; round++) {
      let bytes: Uint8Array = original;
      const applied: string[] = [];
      const steps = 1 + rng.int(3);
      for (let s = 0; s < steps; s++) {
        const name = rng.pick(MUTATION_NAMES);
        bytes = bytes.length === 0 && name !== "bomAtStart" && name !== "invalidUtf8" ? bytes : mutations[name]!(bytes, rng);
        applied.push(name);
        counts.byKind[name] = (counts.byKind[name] ?? 0) + 1;
      }
      counts.mutations++;
      const context = `FUZZ_SEED=${SEED} ${fixture.name} round ${round} [${applied.join(", ")}]`;
      const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
      let viaWorker!: SessionParser;
      let viaServer!: SessionParser;
      expect(() => (viaWorker = parseAsWorker(bytes, rng)), context).not.toThrow();
      expect(() => (viaServer = parseAsServer(text, rng)), context).not.toThrow();
      expect(viaWorker.lineKinds.list(), `${context}: both paths agree`).toEqual(viaServer.lineKinds.list());
      checkSession(viaWorker, text, originalLines, rng, context);
    }
  });
});

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h;
}

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Session, SessionParser, SessionQueryError } from "./index";
import { listFixtures } from "./testing/golden";
import { Rng } from "./testing/rng";

const SEED = Number(process.env.CORRUPTION_SEED ?? 20261202);
const fixtures = listFixtures().filter((f) => !f.name.startsWith("ca-large"));

/** Lines of a text as the parser counts them: split on \n, the empty tail after a final \n is not a line. */
function physicalLines(text: string): number {
  if (text.length === 0) return 0;
  const parts = text.split("\n");
  return text.endsWith("\n") ? parts.length - 1 : parts.length;
}

function isEntryObject(line: string): boolean {
  try {
    const v = JSON.parse(line);
    return typeof v === "object" && v !== null && !Array.isArray(v) && v.type !== "session";
  } catch {
    return false;
  }
}

type Mutation = (lines: string[], rng: Rng) => string[];

const mutations: Record<string, Mutation> = {
  truncateLine: (lines, rng) => {
    const i = rng.int(lines.length);
    const copy = [...lines];
    copy[i] = copy[i]!.slice(0, rng.int(copy[i]!.length));
    return copy;
  },
  duplicateLine: (lines, rng) => {
    const i = rng.int(lines.length);
    return [...lines.slice(0, i + 1), lines[i]!, ...lines.slice(i + 1)];
  },
  swapLines: (lines, rng) => {
    const copy = [...lines];
    const i = rng.int(copy.length);
    const j = rng.int(copy.length);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    return copy;
  },
  garbleLine: (lines, rng) => {
    const copy = [...lines];
    const i = rng.int(copy.length);
    const chars = [...copy[i]!];
    for (let k = 0; k < 3; k++) chars[rng.int(chars.length)] = rng.pick(["{", "}", '"', ",", "\u0000", "x", "\\", "\r"]);
    copy[i] = chars.join("");
    return copy;
  },
  mergeLines: (lines, rng) => {
    if (lines.length < 2) return lines;
    const i = rng.int(lines.length - 1);
    return [...lines.slice(0, i), lines[i]! + lines[i + 1]!, ...lines.slice(i + 2)];
  },
  dropNewlineAtEnd: (lines) => lines,
};

describe("corrupted fixtures", () => {
  it.each(fixtures)("$name: never throws, accounts for every line, keeps every readable entry", (fixture) => {
    const original = readFileSync(fixture.file, "utf8");
    const base = original.endsWith("\n") ? original.slice(0, -1).split("\n") : original.split("\n");
    const rng = new Rng(SEED ^ (fixture.name.length * 7919));
    // big files are costly to re-read 60 times on 2 cores; fewer rounds still cover every mutation kind
    const rounds = original.length > 1_000_000 ? 15 : 60;
    for (let round = 0; round < rounds; round++) {
      const name = rng.pick(Object.keys(mutations));
      const lines = original.length === 0 ? [] : mutations[name]!(base, rng);
      const text = lines.join("\n") + (name === "dropNewlineAtEnd" || lines.length === 0 ? "" : "\n");
      const context = `seed ${SEED} fixture ${fixture.name} round ${round} mutation ${name}`;
      let session: Session;
      expect(() => (session = Session.fromText(text)), context).not.toThrow();
      const account = session!.account();
      expect(account.total, context).toBe(physicalLines(text));
      expect(account.header + account.entry + account.blank + account.unreadable + account["extra-header"], context).toBe(account.total);
      // every line that is a JSON object (other than a header) is an entry of the session
      const headerLine = session!.parser.headerLine;
      // (in a v4 log, lane, fact and record lines are the log's, not the tree's: only its entry lines count)
      const v4Kinds = session!.parser.v4?.lineKinds;
      const readable = text.split("\n").filter((line, i) => i + 1 !== headerLine && isEntryObject(line) && (v4Kinds?.get(i + 1) ?? "entry") === "entry").length;
      expect(session!.tree.entries.length, context).toBe(readable);
      // unreadable lines are each explained by a diagnostic naming that line
      const explained = new Set(session!.diagnostics().map((d) => d.line));
      session!.parser.lineKinds.forEach((kind, i) => {
        if (kind === "unreadable" || kind === "extra-header") expect(explained.has(i + 1), `${context} line ${i + 1}`).toBe(true);
      });
      // every query either answers or says why pi cannot
      const ids = [...session!.tree.ids()];
      const step = Math.max(1, Math.floor(ids.length / 40));
      for (const id of ids.filter((_, k) => k % step === 0)) {
        try {
          session!.context(id);
          session!.branch(id);
        } catch (error) {
          expect(error, context).toBeInstanceOf(SessionQueryError);
        }
      }
    }
  });
});

describe("chunked input", () => {
  it.each(fixtures)("$name: any chunking gives the same session as the whole text", (fixture) => {
    const text = readFileSync(fixture.file, "utf8");
    const whole = Session.fromText(text);
    const rng = new Rng(SEED + 1);
    for (let round = 0; round < 5; round++) {
      const parser = new SessionParser();
      let i = 0;
      while (i < text.length) {
        const size = 1 + rng.int(round < 2 ? 7 : 5000);
        parser.push(text.slice(i, i + size));
        i += size;
      }
      const chunked = new Session(parser.end());
      expect(chunked.parser.lineKinds.list()).toEqual(whole.parser.lineKinds.list());
      expect(chunked.tree.entries).toEqual(whole.tree.entries);
      expect(chunked.leafId).toBe(whole.leafId);
      expect(chunked.diagnostics()).toEqual(whole.diagnostics());
    }
  });
});

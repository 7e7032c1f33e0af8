// A growing file read in steps (a live tail): end(), reopen(), push the rest from the start of the last
// incomplete line, end() again. Whatever the steps, the result must be the whole file read at once.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Session, SessionParser } from "./index";
import { fileStats } from "./features/session-stats";
import { listFixtures } from "./testing/golden";
import { Rng } from "./testing/rng";

const SEED = Number(process.env.REOPEN_SEED ?? Date.now() % 1_000_000);

/** Everything a reader of the parser can see, for comparing two reads of the same text. */
function observed(session: Session) {
  const p = session.parser;
  return {
    header: p.header,
    lineKinds: p.lineKinds.list(),
    account: p.account(),
    diagnostics: session.diagnostics(),
    entries: session.tree.entries,
    entryLines: session.tree.entryLines,
    leafHistory: [...session.tree.leafHistory],
    reader: session.rulesChoice,
    leafId: session.leafId,
    endsWithNewline: p.endsWithNewline,
    // kept while entries are added: a step's totals must go on from where the last step left them
    fileStats: fileStats(session.tree),
  };
}

/** The start of the last line that has no newline yet: where a live tail resumes. */
const resumeAt = (text: string, end: number) => text.lastIndexOf("\n", end - 1) + 1;

/**
 * Reads `text` in steps ending at `cuts`, the way the viewer does with a live
 * tail; the Session is created once and asked between steps (its caches must follow).
 * Returns null when the parser asked for a full re-read at some step.
 */
function readInSteps(text: string, cuts: number[]): Session | null {
  const parser = new SessionParser();
  parser.push(text.slice(0, cuts[0]));
  const session = new Session(parser.end());
  let from = resumeAt(text, cuts[0]!);
  for (const cut of [...cuts.slice(1), text.length]) {
    void session.rulesChoice;
    void session.diagnostics();
    if (!parser.reopen()) return null;
    parser.push(text.slice(from, cut));
    parser.end();
    from = resumeAt(text, cut);
  }
  return session;
}

/**
 * Whether reopen() may refuse after reading text[0, cut): the line without a newline parsed to a value pi
 * keeps (an entry, a header, or a first parsed line deciding the header), the file is v1/v2 (migrated as a
 * whole), or it is a v4 log and that line is there at all (the log keeps its own note of bad lines).
 */
function mayRefuse(text: string, cut: number, kind: { legacy: boolean; v4: boolean }): boolean {
  const torn = text.slice(resumeAt(text, cut), cut);
  if (kind.legacy || (kind.v4 && torn.length > 0)) return true;
  try {
    return Boolean(JSON.parse(torn));
  } catch {
    return false;
  }
}

describe("SessionParser.reopen", () => {
  console.log(`reopen.test seed: ${SEED} (REOPEN_SEED to replay)`);
  const rng = new Rng(SEED);

  for (const fixture of listFixtures()) {
    it(`reads ${fixture.name} in steps as it reads it at once`, () => {
      const text = readFileSync(fixture.file, "utf8");
      const whole = observed(Session.fromText(text));
      const kind = { legacy: whole.diagnostics.some((d) => d.kind === "migrated"), v4: whole.diagnostics.some((d) => d.kind === "v4-log") };
      const cuts = Array.from({ length: 6 }, () => rng.int(text.length + 1)).sort((a, b) => a - b);
      const stepped = readInSteps(text, cuts);
      if (stepped === null) {
        expect(cuts.some((cut) => mayRefuse(text, cut, kind))).toBe(true);
        return;
      }
      expect(observed(stepped)).toEqual(whole);
    });
  }

  const line = (o: object) => JSON.stringify(o) + "\n";
  const header = line({ type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
  const user = (id: string, parentId: string | null) =>
    line({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: id, timestamp: 1 } });
  const leaf = (id: string, parentId: string, targetId: string) => line({ type: "leaf", id, parentId, timestamp: "2026-01-01T00:00:02.000Z", targetId });

  it("takes back a torn last line and reads it again once it is complete", () => {
    const full = header + user("a", null) + user("b", "a");
    const torn = full.slice(0, full.length - 20);
    const parser = new SessionParser();
    parser.push(torn);
    const session = new Session(parser.end());
    expect(session.diagnostics().map((d) => d.kind)).toContain("torn-line");
    expect(session.leafId).toBe("a");
    expect(parser.reopen()).toBe(true);
    parser.push(full.slice(resumeAt(torn, torn.length)));
    parser.end();
    expect(session.leafId).toBe("b");
    expect(observed(session)).toEqual(observed(Session.fromText(full)));
  });

  it("lets the reader choice follow a torn line that completes into a leaf entry (same line count)", () => {
    const full = header + user("a", null) + user("b", "a") + leaf("m", "b", "a");
    const torn = full.slice(0, full.length - 5);
    const parser = new SessionParser();
    parser.push(torn);
    const session = new Session(parser.end());
    const before = { reader: session.reader, lines: parser.lineCount };
    expect(parser.reopen()).toBe(true);
    parser.push(full.slice(resumeAt(torn, torn.length)));
    parser.end();
    expect(parser.lineCount).toBe(before.lines);
    expect(session.reader).toBe(Session.fromText(full).reader);
    expect(session.reader).not.toBe(before.reader);
  });

  it("refuses when the line without newline was already a complete entry", () => {
    const full = header + user("a", null);
    const parser = new SessionParser();
    parser.push(full.slice(0, -1));
    parser.end();
    expect(parser.reopen()).toBe(false);
  });

  it("refuses a v1 file, which is migrated as a whole", () => {
    const text =
      line({ type: "session", id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" }) +
      line({ type: "message", timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } });
    const parser = new SessionParser();
    parser.push(text);
    parser.end();
    expect(parser.reopen()).toBe(false);
  });

  it("drops the empty-file note once the file has lines", () => {
    const parser = new SessionParser();
    const session = new Session(parser.end());
    expect(session.diagnostics().map((d) => d.kind)).toEqual(["empty-file"]);
    expect(parser.reopen()).toBe(true);
    parser.push(header + user("a", null));
    parser.end();
    expect(observed(session)).toEqual(observed(Session.fromText(header + user("a", null))));
  });
});

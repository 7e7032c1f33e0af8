// Sizes the viewer must survive without a stack overflow or a lost entry: a 100k-deep chain, 10k children of
// one entry, and a single 50 MB line, through parse, path, context, fork, stats and transcript.
import { describe, expect, it } from "vitest";
import { Session, sessionStats } from "./index";
import { deepChain, longLine, wideTree } from "./testing/big-sessions";
import { transcriptMarkdown } from "../export/markdown-transcript";

const DEPTH = 100_000;
const WIDTH = 10_000;
const LONG = 50 * 1024 * 1024;

describe("a 100k-deep chain", () => {
  const session = Session.fromText(deepChain(DEPTH));
  const leaf = `e${DEPTH - 1}`;

  it("is read whole", () => {
    expect(session.account()).toMatchObject({ total: DEPTH + 1, header: 1, entry: DEPTH });
    expect(session.leafId).toBe(leaf);
    expect(session.shape().roots).toEqual(["e0"]);
    expect(session.diagnostics()).toEqual([]);
  });

  it("answers path and context at the deepest entry, by both readers", () => {
    expect(session.branch(leaf)).toHaveLength(DEPTH);
    expect(session.branch(leaf, "hx")).toHaveLength(DEPTH);
    expect(session.context(leaf).messages).toHaveLength(DEPTH);
    expect(session.context(leaf, "hx").entryIds).toHaveLength(DEPTH);
    expect(session.pathSummary(leaf)).toMatchObject({ depth: DEPTH });
  });

  it("forks at the deepest entry into a file that reads back the same", () => {
    const fork = session.fork(leaf, { timestamp: "2026-01-06T00:00:00.000Z", sessionId: "deep-fork" });
    const copy = Session.fromText(fork.text);
    expect(copy.branch(leaf).map((e) => e.id)).toEqual(session.branch(leaf).map((e) => e.id));
  });

  it("gives stats and a transcript", () => {
    expect(sessionStats(session.tree.entries, session.tree)).toBeDefined();
    expect(transcriptMarkdown(session, leaf)).toContain(`step ${DEPTH - 1}`);
  });
});

describe("10k children of one entry", () => {
  const session = Session.fromText(wideTree(WIDTH));

  it("keeps every child, in pi's order", () => {
    expect(session.tree.children("root")).toHaveLength(WIDTH);
    expect(session.tree.children("root")[0]).toBe("c0");
    expect(session.leafId).toBe(`c${WIDTH - 1}`);
    expect(session.diagnostics()).toEqual([]);
  });

  it("answers for any child", () => {
    for (const id of ["c0", `c${WIDTH / 2}`, `c${WIDTH - 1}`]) {
      expect(session.branch(id).map((e) => e.id)).toEqual(["root", id]);
      expect(session.context(id).messages).toHaveLength(2);
      expect(Session.fromText(session.fork(id).text).branch(id)).toHaveLength(2);
    }
  });
});

describe("a 50 MB line", () => {
  const session = Session.fromText(longLine(LONG));

  it("is one entry, whole", () => {
    expect(session.account()).toMatchObject({ total: 3, entry: 2 });
    const message = session.tree.get("long")!.message as { content: string };
    expect(message.content).toHaveLength(LONG);
  });

  it("goes through context, fork and transcript", () => {
    expect(session.context("reply").messages).toHaveLength(2);
    const fork = session.fork("reply");
    expect(fork.text.length).toBeGreaterThan(LONG);
    expect(transcriptMarkdown(session, "reply").length).toBeGreaterThan(0);
  });
});

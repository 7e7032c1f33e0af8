import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Session, SessionParser, SessionQueryError } from "./index";
import { SchemaLineChecker } from "./read/schema-lines";
import { FIXTURES_DIR } from "./testing/golden";

const fixture = (name: string) => readFileSync(path.join(FIXTURES_DIR, `${name}.jsonl`), "utf8");
const line = (o: object) => JSON.stringify(o) + "\n";
const header = line({ type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
const user = (id: string, parentId: string | null, text = id, ts = "2026-01-01T00:00:01.000Z") =>
  line({ type: "message", id, parentId, timestamp: ts, message: { role: "user", content: text, timestamp: 1 } });

describe("leaf history", () => {
  it("records every append, and marks appends away from the previous leaf as branches", () => {
    const s = Session.fromText(header + user("a", null) + user("b", "a") + user("c", "a") + user("d", null));
    expect([...s.tree.leafHistory].map((h) => [h.line, h.entryId, h.leafId, h.previousLeafId, h.kind])).toEqual([
      [2, "a", "a", null, "append"],
      [3, "b", "b", "a", "append"],
      [4, "c", "c", "b", "branch"],
      [5, "d", "d", "c", "branch"],
    ]);
  });

  it("replays harness leaf entries as explicit moves, including to null", () => {
    const s = Session.fromText(
      header +
        user("a", null) +
        user("b", "a") +
        line({ type: "leaf", id: "m1", parentId: "b", timestamp: "2026-01-01T00:00:02.000Z", targetId: "a" }) +
        line({ type: "leaf", id: "m2", parentId: "a", timestamp: "2026-01-01T00:00:03.000Z", targetId: null }),
    );
    expect(s.reader).toBe("hx");
    expect(s.leafId).toBeNull();
    expect(s.tree.leaf("ca")).toBe("m2");
    expect([...s.tree.leafHistory].map((h) => [h.kind, h.leafId])).toEqual([
      ["append", "a"],
      ["append", "b"],
      ["leaf-entry", "a"],
      ["leaf-entry", null],
    ]);
  });

  it("matches pi's file leaf on the harness fixture for both readers", () => {
    const golden = JSON.parse(readFileSync(path.join(FIXTURES_DIR, "golden/hx-leaf-moves-a.golden.json"), "utf8"));
    const s = Session.fromText(fixture("hx-leaf-moves-a"));
    expect(s.reader).toBe("hx");
    expect(s.leafId).toBe(golden.harness.load.fileLeafId);
    expect(s.tree.leaf("ca")).toBe(golden.codingAgent.load.fileLeafId);
    const last = s.tree.leafHistory.at(s.tree.leafHistory.length - 1)!;
    expect(last.leafId).toBe(golden.harness.load.fileLeafId);
  });
});

describe("remembered paths", () => {
  it("gives each caller its own array and forgets a path once the tree grows", () => {
    const parser = new SessionParser();
    parser.push(header + user("a", null) + user("b", "a") + user("c", "x"));
    const s = new Session(parser);
    const first = s.branch("b");
    first.reverse();
    expect(s.branch("b").map((e) => e.id)).toEqual(["a", "b"]);
    expect(s.branch("c").map((e) => e.id)).toEqual(["c"]);
    // the orphan's parent arrives: its path now runs to the root
    parser.push(user("x", "b"));
    expect(s.branch("c").map((e) => e.id)).toEqual(["a", "b", "x", "c"]);
  });

  it("cutFromContext is pi's path less pi's context, for every entry of a file compacted twice", () => {
    const s = Session.fromText(fixture("ca-compaction-multi-a"));
    const golden = JSON.parse(readFileSync(path.join(FIXTURES_DIR, "golden", "ca-compaction-multi-a.golden.json"), "utf8")).codingAgent;
    let cutSome = 0;
    for (const [id, record] of Object.entries<{ path: string[]; context: string[] }>(golden.leaves)) {
      const kept = new Set(record.context);
      const expected = record.path.filter((p) => !kept.has(p));
      expect(
        s.cutFromContext(id).entries.map((e) => e.id),
        id,
      ).toEqual(expected);
      expect(
        s.cutFromContext(id).entries.map((e) => e.id),
        `${id}, asked again`,
      ).toEqual(expected);
      const cut = s.cutFromContext(id);
      expect([...cut], `${id}, as a set`).toEqual(expected);
      expect(cut.size).toBe(expected.length);
      for (const p of record.path) expect(cut.has(p), `${id}: ${p}`).toBe(!kept.has(p));
      if (expected.length) cutSome++;
    }
    expect(cutSome).toBeGreaterThan(0);
  });
});

describe("reader choice", () => {
  it("uses the coding agent's rules when the harness would refuse a file with leaf entries, and says so", () => {
    const text =
      header + user("a", null) + "not json\n" + line({ type: "leaf", id: "m1", parentId: "a", timestamp: "2026-01-01T00:00:02.000Z", targetId: "a" });
    const s = Session.fromText(text);
    expect(s.reader).toBe("ca");
    expect(s.rulesChoice.harnessError).toBe("line 3 is not valid JSON");
    expect(s.diagnostics().find((d) => d.kind === "hx-refused")?.message).toContain("line 3 is not valid JSON");
  });

  it("falls back when the harness leaf names a missing entry", () => {
    const s = Session.fromText(fixture("edge-leaf-missing-target"));
    expect(s.reader).toBe("ca");
    expect(s.rulesChoice.harnessError).toBe("Entry nothere not found");
  });
});

describe("tree shape", () => {
  it("shows a parent cycle that no root reaches as one extra root, and reports it", () => {
    const s = Session.fromText(fixture("edge-cycle"));
    const shape = s.shape();
    expect(shape.cycles.length).toBe(1);
    expect(shape.roots.length).toBe(s.tree.roots.length + 1);
    const diagnostic = shape.diagnostics.find((d) => d.kind === "cycle")!;
    expect(diagnostic.severity).toBe("error");
    expect(shape.cycleRoots.has(diagnostic.entryId!)).toBe(true);
  });

  it("throws a cycle error where pi would never return", () => {
    const s = Session.fromText(fixture("edge-cycle-at-leaf"));
    expect(() => s.context(s.leafId)).toThrow(SessionQueryError);
    try {
      s.branch(s.leafId!);
    } catch (error) {
      expect((error as SessionQueryError).kind).toBe("cycle");
    }
  });

  it("adopts children whose parent appears later in the file", () => {
    const s = Session.fromText(header + user("b", "a") + user("a", null));
    expect(s.tree.roots).toEqual(["a"]);
    expect(s.tree.children("a")).toEqual(["b"]);
    expect(s.branch("b").map((e) => e.id)).toEqual(["a", "b"]);
    expect(s.shape().diagnostics).toEqual([]);
  });

  it("lets a duplicate id replace the earlier line everywhere", () => {
    const s = Session.fromText(header + user("a", null) + user("b", "a", "first") + user("b", null, "second"));
    expect(s.tree.roots).toEqual(["a", "b"]);
    expect(s.tree.children("a")).toEqual([]);
    expect((s.tree.get("b")!.message as { content: string }).content).toBe("second");
    expect(s.diagnostics().map((d) => [d.line, d.kind])).toContainEqual([4, "duplicate-id"]);
  });
});

describe("diagnostics", () => {
  it("names the line and reason of everything pi skips", () => {
    const text = header + user("a", null) + "{oops\n" + "null\n" + "42\n" + "\n" + user("b", "a") + '{"type":"message","id":"c","parentId":"b"';
    const s = Session.fromText(text);
    const byLine = new Map(s.diagnostics().map((d) => [d.line, d.kind]));
    expect(byLine.get(3)).toBe("invalid-json");
    expect(byLine.get(4)).toBe("not-object");
    expect(byLine.get(5)).toBe("not-object");
    expect(byLine.get(8)).toBe("torn-line");
    expect(s.account()).toEqual({ total: 8, header: 1, entry: 2, blank: 1, unreadable: 4, "extra-header": 0 });
  });

  it("reports entries that differ from pi's schema without dropping them", () => {
    const s = Session.fromText(header + line({ type: "model_change", id: "m", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", provider: 7 }));
    const schema = s.diagnostics().find((d) => d.kind === "schema")!;
    expect(schema.line).toBe(2);
    expect(schema.message).toContain("provider");
    expect(s.tree.get("m")).toBeDefined();
  });

  it("holds schema findings back while the check runs elsewhere, then gives the same ones it would have found", () => {
    const text = header + user("a", null) + line({ type: "model_change", id: "m", parentId: "a", timestamp: "2026-01-01T00:00:02.000Z", provider: 7 });
    const parser = new SessionParser();
    parser.push(text);
    parser.end();
    const s = new Session(parser, { schemaPending: true });
    expect(s.schemaPending).toBe(true);
    expect(s.schemaDiagnostics()).toEqual([]);
    const checker = new SchemaLineChecker();
    checker.push(text);
    s.acceptSchema(checker.result());
    expect(s.schemaPending).toBe(false);
    expect(s.schemaDiagnostics()).toEqual(Session.fromText(text).schemaDiagnostics());
    expect(s.schemaDiagnostics().map((d) => d.line)).toEqual([3]);
  });

  it("accepts every entry pi wrote in the fixtures without schema findings", () => {
    for (const name of ["ca-roles-a", "ca-branching-a", "ca-compaction-multi-a", "hx-retained-a", "legacy-v1-a", "legacy-v2-a"]) {
      expect(Session.fromText(fixture(name)).schemaDiagnostics(), name).toEqual([]);
    }
  });

  it("recognises a v4 mutation log", () => {
    const s = Session.fromText(fixture("v4-lanes-sample"));
    expect(s.parser.isV4Log).toBe(true);
    expect(s.diagnostics()[0]!.kind).toBe("v4-log");
  });
});

describe("migration", () => {
  it("gives v1 entries the same ids on every load", () => {
    const text = fixture("legacy-v1-a");
    expect(Session.fromText(text).tree.entries.map((e) => e.id)).toEqual(Session.fromText(text).tree.entries.map((e) => e.id));
    const ids = Session.fromText(text).tree.entries.map((e) => e.id as string);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
  });
});

describe("path summary", () => {
  it("sums assistant usage along the path", () => {
    const s = Session.fromText(fixture("ca-tiny"));
    const leaf = s.leafId!;
    const expected = s
      .branch(leaf)
      .map((e) =>
        e.type === "message" && (e.message as { role: string }).role === "assistant" ? (e.message as { usage: { totalTokens: number } }).usage.totalTokens : 0,
      )
      .reduce((a, b) => a + b, 0);
    expect(s.pathSummary(leaf).usage.totalTokens).toBe(expected);
    expect(s.pathSummary(leaf).depth).toBe(s.branch(leaf).length);
  });
});

describe("stats", () => {
  it("counts roles, tools, models and usage over the file and over a path", async () => {
    const { sessionStats } = await import("./index");
    const s = Session.fromText(fixture("ca-roles-a"));
    const all = sessionStats(s.tree.entries, s.tree);
    const messages = s.tree.entries.filter((e) => e.type === "message");
    expect(all.entries).toBe(s.tree.entries.length);
    expect(Object.values(all.roles).reduce((a, b) => a + b, 0)).toBe(messages.length);
    const calls = messages.flatMap((e) => {
      const m = e.message as { role: string; content: { type: string; name?: string }[] };
      return m.role === "assistant" ? m.content.filter((b) => b.type === "toolCall").map((b) => b.name!) : [];
    });
    expect(Object.values(all.toolCalls).reduce((a, b) => a + b, 0)).toBe(calls.length);
    const leaf = s.leafId!;
    expect(sessionStats(s.branch(leaf)).usage).toEqual(s.pathSummary(leaf).usage);
    expect(all.leaves).toBeGreaterThan(0);
  });
});

describe("reader choice while the file grows", () => {
  it("is reconsidered when a later line makes the harness refuse the file", () => {
    const parser = new SessionParser();
    parser.push(header + user("a", null) + line({ type: "leaf", id: "m1", parentId: "a", timestamp: "2026-01-01T00:00:02.000Z", targetId: "a" }));
    const s = new Session(parser);
    expect(s.reader).toBe("hx");
    parser.push("not json\n");
    expect(s.reader).toBe("ca");
    expect(s.rulesChoice.harnessError).toBe("line 4 is not valid JSON");
  });
});

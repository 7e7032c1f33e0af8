/**
 * Fixed files through pi's newer versions: the committed new-format fixtures
 * (written by pi's own code, see testing/write-version-fixtures.ts), and the
 * shared fixtures whose reading the spec says changed (§16): the stacked
 * compactions of ca-compaction-multi-a, the newline repair, and the v4 log
 * sample. pi opens copies in a temporary directory (its SessionManager may
 * rewrite a file it opens).
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULE_SETS, rulesBadgeText, Session, type RuleSetId } from "./index";
import { moduleUrl, type PiContext, type V4Storage } from "./testing/oracle";
import type { WrittenEntry } from "./testing/random-session";
import type { V4Entry } from "./testing/random-session-versions";

const REPO = path.resolve(__dirname, "../..");
const SHARED = process.env.PI_SHARED_DIR ?? path.resolve(REPO, "../shared");
const NEWEST = path.join(REPO, "e2e", "fixtures", "sessions", "--home-dev-projects-newest--");
interface CaSm {
  getEntries(): WrittenEntry[];
  getLeafId(): string | null;
  getBranch(id?: string): WrittenEntry[];
  getSessionName(): string | undefined;
  getLabel(id: string): string | undefined;
}
interface CaModule {
  SessionManager: { open(file: string, sessionDir?: string): CaSm };
  buildContextEntries(entries: WrittenEntry[], leafId: string | null, byId?: Map<string, WrittenEntry>): WrittenEntry[];
  buildSessionContext(entries: WrittenEntry[], leafId: string | null, byId?: Map<string, WrittenEntry>): PiContext;
}
const CA: Record<string, { pkg: string; mod?: CaModule }> = {
  "0.84.1": { pkg: "@earendil-works/pi-coding-agent" },
  "0.86.1": { pkg: "pi-coding-agent-0861" },
  "0.87.1": { pkg: "pi-coding-agent-0871" },
  "1.6.0": { pkg: "pi-coding-agent-160" },
};
let v4: {
  load(fs: unknown, path: string): Promise<V4Storage>;
  context: (path: V4Entry[]) => PiContext;
  contextEntries: (path: V4Entry[]) => V4Entry[];
  env: unknown;
};
let tmp: string;

beforeAll(async () => {
  for (const version of Object.values(CA)) version.mod = (await import(moduleUrl(`${version.pkg}/dist/core/session-manager.js`))) as CaModule;
  const base = "pi-agent-core-v4/dist/harness";
  const storage = await import(moduleUrl(`${base}/session/jsonl/storage.js`));
  const context = await import(moduleUrl(`${base}/session/context.js`));
  const env = await import(moduleUrl(`${base}/env/nodejs.js`));
  tmp = mkdtempSync(path.join(os.tmpdir(), "pi-version-fixtures-"));
  v4 = {
    load: (fs, file) => storage.JsonlSessionStorage.load(fs, file),
    context: context.buildSessionContext,
    contextEntries: context.buildContextEntries,
    env: new env.NodeExecutionEnv({ cwd: tmp }),
  };
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const ids = (entries: readonly { id: string }[]) => entries.map((e) => e.id);
const json = (value: unknown) => JSON.parse(JSON.stringify(value ?? null));
let copies = 0;
function copyOf(file: string): string {
  const target = path.join(tmp, `${copies++}-${path.basename(file)}`);
  copyFileSync(file, target);
  return target;
}

/** Every entry's branch, context entries, messages and settings: ours by `reader` against pi `version`. */
function compareEveryEntry(text: string, file: string, version: string, reader: RuleSetId): number {
  const ca = CA[version]!.mod!;
  const session = Session.fromText(text, { reader });
  const sm = ca.SessionManager.open(copyOf(file), tmp);
  const entries = sm.getEntries();
  const byId = new Map(entries.map((e) => [e.id, e]));
  expect(session.leafId).toBe(sm.getLeafId());
  expect(session.name).toBe(sm.getSessionName() ?? null);
  for (const entry of entries) {
    expect(session.labels().get(entry.id)?.label, `label of ${entry.id}`).toBe(sm.getLabel(entry.id));
    expect(ids(session.branch(entry.id)), `branch ${entry.id}`).toEqual(ids(sm.getBranch(entry.id)));
    const ours = session.context(entry.id);
    expect(ours.entryIds, `context entries ${entry.id}`).toEqual(ids(ca.buildContextEntries(entries, entry.id, byId)));
    const theirs = ca.buildSessionContext(entries, entry.id, byId);
    expect(json(ours.messages.map((m) => m.message)), `messages ${entry.id}`).toEqual(json(theirs.messages));
    expect(json([ours.model, ours.thinkingLevel]), `settings ${entry.id}`).toEqual(json([theirs.model, theirs.thinkingLevel]));
  }
  return entries.length;
}

async function compareV4Log(text: string, file: string): Promise<Session> {
  const session = Session.fromText(text);
  const storage = await v4.load(v4.env, copyOf(file));
  expect(session.parser.v4!.refusal).toBeNull();
  expect(session.tree.entries.map((e) => e.id)).toEqual(ids(await storage.findEntries({ order: "oldestFirst" })));
  const lanes = await storage.getLanes();
  expect(session.lanes.map((l) => ({ lane: l.lane, leafId: l.leafId }))).toEqual(lanes);
  expect(session.leafId).toBe(lanes[0]!.leafId);
  expect(session.name).toBe((await storage.getName()) ?? null);
  expect(session.parser.v4!.stats).toEqual(await storage.getStats());
  for (const entry of session.tree.entries) {
    expect(session.labels().get(entry.id as string)?.label).toBe(await storage.getLabel(entry.id as string));
  }
  for (const start of [...session.tree.entries.map((e) => e.id as string), ...lanes.flatMap((l) => (l.leafId ? [l.leafId] : []))]) {
    const branch = await storage.findEntriesOnBranch({ start, order: "oldestFirst" });
    expect(ids(session.branch(start)), `branch ${start}`).toEqual(ids(branch));
    const ours = session.context(start);
    const theirs = v4.context(branch);
    expect(ours.entryIds).toEqual(ids(v4.contextEntries(branch)));
    expect(json(ours.messages.map((m) => m.message)), `messages ${start}`).toEqual(json(theirs.messages));
    expect(json([ours.model, ours.thinkingLevel, ours.activeToolNames])).toEqual(json([theirs.model, theirs.thinkingLevel, theirs.activeToolNames]));
  }
  return session;
}

describe("the committed new-format fixtures, read by the pi that wrote them", () => {
  const files = readdirSync(NEWEST).sort();
  const text = (i: number) => readFileSync(path.join(NEWEST, files[i]!), "utf8");

  it("indexes each context_edit under the entry it names, as a scan of the file finds them", () => {
    let found = 0;
    for (const i of [1, 2]) {
      const session = Session.fromText(text(i));
      for (const id of session.tree.ids()) {
        const scanned = session.tree.entries.filter((e) => e.type === "context_edit" && e.targetId === id);
        expect(session.tree.editsOf(id)).toEqual(scanned);
        found += scanned.length;
      }
    }
    expect(found, "the 0.87 and 1.6 fixtures hold edits").toBeGreaterThan(0);
  });

  it("holds one file per format, each as pi writes it (no schema findings)", () => {
    expect(files).toHaveLength(4);
    for (const i of [0, 1, 2]) expect(Session.fromText(text(i)).schemaDiagnostics(), files[i]).toEqual([]);
  });

  it("0.86.1: usage entries and system messages pick the 0.86 rules; every entry as pi 0.86.1 reads it", () => {
    const session = Session.fromText(text(0));
    expect(session.rulesChoice.id).toBe("ca-0.86");
    expect(session.rulesChoice.detail).toBe("line 2: system message");
    expect(rulesBadgeText(session.rulesChoice)).toBe(`Read as ${RULE_SETS["ca-0.86"].label} (line 2: system message)`);
    expect(session.rulesChoice.traces.map((t) => t.what)).toEqual(["system message", "usage", "compaction systemMessage"]);
    expect(compareEveryEntry(text(0), path.join(NEWEST, files[0]!), "0.86.1", "ca-0.86")).toBe(session.tree.size);
    // the second compaction keeps the first in its range: 0.86 sends both summaries
    const summaries = session.context(session.leafId).messages.filter((m) => m.message.role === "compactionSummary");
    expect(summaries).toHaveLength(2);
  });

  it("0.87.1: context_edit picks the ≥ 0.87 rules; edits replace and drop on their branch only", () => {
    const file = path.join(NEWEST, files[1]!);
    const session = Session.fromText(text(1));
    expect(session.rulesChoice.id).toBe("ca-0.87");
    expect(session.rulesChoice.detail).toMatch(/^line \d+: context_edit$/);
    compareEveryEntry(text(1), file, "0.87.1", "ca-0.87");
    compareEveryEntry(text(1), file, "1.6.0", "ca-0.87");
    const edit = session.tree.entries.find((e) => e.type === "context_edit" && e.replacement !== null)!;
    const target = edit.targetId as string;
    const onBranch = session.context(edit.id as string).messages.find((m) => m.entryId === target)!;
    expect(onBranch.editedBy).toBe(edit.id);
    expect(JSON.stringify(onBranch.message.content)).toContain("trimmed from context");
    // the file's leaf is on the other branch, which the edit is not on: the read is sent in full there
    const leafContext = session.context(session.leafId);
    expect(leafContext.messages.some((m) => m.editedBy)).toBe(false);
  });

  it("1.6.0: a context_edit of an assistant answer", () => {
    const session = Session.fromText(text(2));
    expect(session.rulesChoice.id).toBe("ca-0.87");
    compareEveryEntry(text(2), path.join(NEWEST, files[2]!), "1.6.0", "ca-0.87");
    const edited = session.context(session.leafId).messages.filter((m) => m.editedBy);
    expect(edited).toHaveLength(1);
    expect(edited[0]!.message.content).toEqual([{ type: "text", text: "Node 20.19 or later (engines in package.json)." }]);
  });

  it("pi-agent-core 0.84.1: the v4 log's lanes, labels, records and every entry's context", async () => {
    const session = await compareV4Log(text(3), path.join(NEWEST, files[3]!));
    expect(session.rulesChoice.id).toBe("v4");
    expect(session.rulesChoice.detail).toBe("line 1: v4 header");
    expect(session.lanes.map((l) => l.lane)).toEqual(["main", "review"]);
    expect(session.parser.v4!.records.map((r) => r.record.type)).toEqual(["operation_started", "usage"]);
    expect(session.context(session.leafId).messages.some((m) => m.message.stopReason === "deferred")).toBe(false);
  });
});

describe("shared fixtures through the newer versions (spec §16)", () => {
  it("ca-compaction-multi-a: 0.86.1 reads it as 0.84.1; 0.87.1 and 1.6.0 drop exactly the second summaries", () => {
    const file = path.join(SHARED, "fixtures", "ca-compaction-multi-a.jsonl");
    const text = readFileSync(file, "utf8");
    const n = compareEveryEntry(text, file, "0.86.1", "ca-0.86");
    compareEveryEntry(text, file, "0.87.1", "ca-0.87");
    compareEveryEntry(text, file, "1.6.0", "ca-0.87");
    compareEveryEntry(text, file, "0.84.1", "ca");
    const session = Session.fromText(text);
    expect(session.reader).toBe("ca");
    let differing = 0;
    for (const entry of session.tree.entries) {
      const id = entry.id as string;
      const old = session.context(id, "ca").messages;
      const newer = session.context(id, "ca-0.87").messages;
      expect(session.context(id, "ca-0.86").messages).toEqual(old);
      const twoSummaries = old.filter((m) => m.message.role === "compactionSummary").length > 1;
      expect(newer.length !== old.length, `entry ${id}`).toBe(twoSummaries);
      if (twoSummaries) {
        differing++;
        // the only messages dropped are the older compactions' summaries after the head
        expect(json(old.filter((m, i) => !(i > 0 && m.message.role === "compactionSummary")))).toEqual(json(newer));
      }
    }
    expect(n).toBeGreaterThan(0);
    expect(differing).toBeGreaterThan(0);
  });

  it("a file without final newline: 0.84.1 leaves it, 0.86.1 and later append one; ours reports it", () => {
    const file = path.join(SHARED, "fixtures", "edge-trailing-partial.jsonl");
    const text = readFileSync(file, "utf8");
    expect(text.endsWith("\n")).toBe(false);
    const results: Record<string, boolean> = {};
    for (const version of ["0.84.1", "0.86.1", "0.87.1", "1.6.0"]) {
      const copy = copyOf(file);
      CA[version]!.mod!.SessionManager.open(copy, tmp);
      const after = readFileSync(copy, "utf8");
      results[version] = after === `${text}\n`;
      if (!results[version]) expect(after, version).toBe(text);
    }
    expect(results).toEqual({ "0.84.1": false, "0.86.1": true, "0.87.1": true, "1.6.0": true });
    expect(
      Session.fromText(text)
        .diagnostics()
        .map((d) => d.kind),
    ).toContain("torn-line");
  });

  it("v4-lanes-sample: pi-agent-core 0.84.1 reads it as we do; no coding agent opens it", async () => {
    const file = path.join(SHARED, "fixtures", "v4-lanes-sample.jsonl");
    const text = readFileSync(file, "utf8");
    const session = await compareV4Log(text, file);
    const golden = JSON.parse(readFileSync(path.join(SHARED, "fixtures", "golden", "v4-lanes-sample.golden.json"), "utf8")).harnessV4;
    expect(session.lanes.map((l) => ({ lane: l.lane, leafId: l.leafId }))).toEqual(golden.lanes);
    expect(session.name).toBe(golden.name);
    expect(Object.fromEntries([...session.labels()].map(([id, s]) => [id, s.label]))).toEqual(golden.labels);
    for (const [lane, branch] of Object.entries(golden.branches as Record<string, string[]>)) {
      expect(ids(session.branch(session.lanes.find((l) => l.lane === lane)!.leafId!))).toEqual(branch);
    }
    for (const version of Object.keys(CA)) expect(() => CA[version]!.mod!.SessionManager.open(copyOf(file), tmp), version).toThrow(/not a valid/);
  });
});

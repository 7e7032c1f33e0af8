/**
 * Differential test against pi's own code. Random sessions are written through
 * pi's writers — the coding agent's SessionManager (pi-coding-agent 0.84.1) and
 * the harness Session over JsonlSessionStorage (pi-agent-core 0.83.0) — and every
 * file is then read by both of pi's readers and by this library with the matching
 * reader. For every entry we compare the branch, the context (entries, messages,
 * model, thinking level, and for the harness the active tools) and, for the
 * coding agent, the file createBranchedSession writes, byte for byte (for the
 * harness, the file repo.fork writes at and before every entry); per file
 * also the leaf, the labels, the name and (coding agent) the /tree order.
 *
 * Forks: pi writes the fork to disk for every 4th entry and the file leaf (two of
 * them after a real SessionManager.open), the other entries are forked by the
 * same createBranchedSession in pi's in-memory mode; DIFF_FULL_FORKS=1 writes
 * every fork to disk (slower).
 *
 * Deterministic: DIFF_SEED (default below) seeds everything we choose; pi's own
 * ids are random but never steer the generator. DIFF_SESSIONS / DIFF_HX_SESSIONS
 * raise the counts, DIFF_ONLY=<index> replays a single session. Every assertion
 * names the seed, the session and the entry; a failing session's file is kept in
 * the temp directory and its path added to the message.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { modelView, Session, type RuleSetId } from "./index";
import { stableStringify } from "./testing/golden";
import {
  forkBoth,
  ids,
  moduleUrl,
  sameFileFacts,
  sameJson,
  serialize,
  settle,
  loadBranchSummary,
  loadCompaction,
  sameCompaction,
  KEEP_RECENT,
  unwrapResult,
  type PiCompaction,
  loadProjection,
  sameBranchSummary,
  sameModelView,
  summaryPairs,
  SUMMARY_BUDGETS,
  type PiBranchSummary,
  type CaModule as OracleCaModule,
  type ModelViewCases,
  type PiProjection,
  type Outcome,
  type PiContext,
} from "./testing/oracle";
import {
  driveCodingAgent,
  driveHarness,
  MemoryFileSystem,
  SessionClock,
  sessionSeed,
  sessionSize,
  storedSummaryOps,
  type CaSessionManager,
  type CaTreeNode,
  type HxSession,
  type WrittenEntry,
} from "./testing/random-session";
import { Rng } from "./testing/rng";

const SEED = Number(process.env.DIFF_SEED ?? 20260305);
const CA_SESSIONS = Number(process.env.DIFF_SESSIONS ?? 500);
const HX_SESSIONS = Number(process.env.DIFF_HX_SESSIONS ?? 200);
const ONLY = process.env.DIFF_ONLY === undefined ? null : Number(process.env.DIFF_ONLY);
const BATCH = 50;
/** every n-th entry's fork is written to disk by pi (plus the file leaf); DIFF_FULL_FORKS=1: all of them */
const PERSISTED_FORK_EVERY = process.env.DIFF_FULL_FORKS === "1" ? 1 : 4;

// ---------------------------------------------------------------------------
// pi's modules, imported by file path (the package roots do not load on Node 20)
// ---------------------------------------------------------------------------

type CaModule = OracleCaModule<CaSessionManager>;

interface HxStorage {
  getLeafId(): Promise<string | null>;
  getEntries(): Promise<WrittenEntry[]>;
  getPathToRootOrCompaction(id: string | null): Promise<WrittenEntry[]>;
  getLabel(id: string): Promise<string | undefined>;
  getSessionName(): Promise<string | undefined>;
}

interface HxRepo {
  fork(
    source: { path: string },
    options: { cwd: string; entryId: string; position: "at" | "before"; id: string },
  ): Promise<{ getStorage(): { filePath: string } }>;
}

interface HxModules {
  JsonlSessionStorage: {
    create(fs: MemoryFileSystem, file: string, options: { cwd: string; sessionId: string; parentSessionPath?: string; metadata?: unknown }): Promise<HxStorage>;
    open(fs: MemoryFileSystem, file: string): Promise<HxStorage>;
  };
  Session: new (storage: HxStorage) => HxSession & { buildContext(): Promise<PiContext> };
  JsonlSessionRepo: new (options: { fs: MemoryFileSystem; sessionsRoot: string }) => HxRepo;
  loadJsonlSessionMetadata(fs: MemoryFileSystem, file: string): Promise<{ path: string; cwd: string }>;
  buildSessionContext(pathEntries: WrittenEntry[]): PiContext;
  buildContextEntries(pathEntries: WrittenEntry[]): WrittenEntry[];
}

let ca: CaModule;
let hx: HxModules;
let caProjection: PiProjection;
let hxProjection: PiProjection;
let caSummary: PiBranchSummary;
let caCompaction: PiCompaction;
let hxCompaction: PiCompaction;
let hxSummary: PiBranchSummary;
let workDir: string;

beforeAll(async () => {
  ca = (await import(moduleUrl("@earendil-works/pi-coding-agent/dist/core/session-manager.js"))) as CaModule;
  const storage = await import(moduleUrl("pi-agent-core-hx/dist/harness/session/jsonl-storage.js"));
  const session = await import(moduleUrl("pi-agent-core-hx/dist/harness/session/session.js"));
  const repo = await import(moduleUrl("pi-agent-core-hx/dist/harness/session/jsonl-repo.js"));
  hx = {
    JsonlSessionRepo: repo.JsonlSessionRepo,
    loadJsonlSessionMetadata: storage.loadJsonlSessionMetadata,
    JsonlSessionStorage: storage.JsonlSessionStorage,
    Session: session.Session,
    buildSessionContext: session.buildSessionContext,
    buildContextEntries: session.buildContextEntries,
  };
  caProjection = await loadProjection("@earendil-works/pi-coding-agent", "coding-agent");
  hxProjection = await loadProjection("pi-agent-core-hx", "harness");
  caSummary = await loadBranchSummary("@earendil-works/pi-coding-agent", "coding-agent");
  caCompaction = await loadCompaction("@earendil-works/pi-coding-agent", "coding-agent");
  hxCompaction = await loadCompaction("pi-agent-core-hx", "harness");
  hxSummary = await loadBranchSummary("pi-agent-core-hx", "harness");
  workDir = mkdtempSync(path.join(os.tmpdir(), "pi-diff-"));
});

afterAll(() => {
  vi.useRealTimers();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------
// Comparison helpers
// ---------------------------------------------------------------------------

const totals = { caSessions: 0, hxSessions: 0, caEntries: 0, hxEntries: 0, caForks: 0, caForksWritten: 0, crossCaEntries: 0, crossHxEntries: 0, checks: 0 };

/** How often pi's answers hit the cases worth testing (counted on pi's side; the run fails if one never occurs). */
const seen = {
  caTwoCompactionSummaries: 0,
  caKeptRangeBeforeCompaction: 0,
  caNullContentFixed: 0,
  caSeveralRoots: 0,
  caSiblingsReordered: 0,
  caSiblingsSameTimestamp: 0,
  caForkRelabelled: 0,
  caForkDroppedLabelEntries: 0,
  caForkNotWritten: 0,
  caNameCleared: 0,
  caLabelCleared: 0,
  hxRetainedTail: 0,
  hxPathStopsAtCompaction: 0,
  hxSettingsDifferFromCa: 0,
  hxActiveTools: 0,
  hxLeafNotLastLine: 0,
  hxLeafNull: 0,
  llmBashExcluded: 0,
  llmConverted: 0,
  llmUsageCounted: 0,
  llmEstimatedOnly: 0,
  llmPiCannotEstimate: 0,
  summaryEntries: 0,
  summaryOverBudget: 0,
  summaryBashExecution: 0,
  summaryStoredBranchSummary: 0,
  summaryStoredCompactionSummary: 0,
  compactionPrepared: 0,
  compactionSplitTurn: 0,
  compactionExtendsPrevious: 0,
  hxCompactionPrepared: 0,
  hxForkAt: 0,
  hxForkBefore: 0,
  hxForkRefused: 0,
  hxForkBehindCompaction: 0,
};

/** Adds what one model-view comparison met to the run's counts. */
function countModelView(cases: ModelViewCases): void {
  seen.llmBashExcluded += cases.excludedBash;
  seen.llmConverted += cases.converted;
  if (cases.usageCounted) seen.llmUsageCounted++;
  else if (!cases.piCannotEstimate) seen.llmEstimatedOnly++;
  if (cases.piCannotEstimate) seen.llmPiCannotEstimate++;
}

function same(actual: unknown, expected: unknown, where: string): void {
  totals.checks++;
  sameJson(actual, expected, where);
}

const jsonCache = new WeakMap<object, string>();
function jsonOf(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  let text = jsonCache.get(value);
  if (text === undefined) jsonCache.set(value, (text = JSON.stringify(value)));
  return text;
}

/** Two message lists, element by element (stored messages are the same objects at every entry, so their JSON is cached). */
function sameMessages(actual: readonly unknown[], expected: readonly unknown[], where: string): void {
  totals.checks++;
  if (actual.length === expected.length && actual.every((m, i) => jsonOf(m) === jsonOf(expected[i]))) return;
  same([...actual], [...expected], where);
}

function sameOutcome<A, B>(ours: Outcome<A>, theirs: Outcome<B>, where: string, compare: (a: A, b: B) => void): void {
  if (ours.ok && theirs.ok) return compare(ours.value, theirs.value);
  expect(ours.ok ? "returns" : `throws ${ours.error}`, where).toBe(theirs.ok ? "returns" : `throws ${theirs.error}`);
}

// ---------------------------------------------------------------------------
// Coding agent (pi-coding-agent 0.84.1)
// ---------------------------------------------------------------------------

/**
 * Read `file` with pi's SessionManager and with ours (reader "ca"); compare
 * everything at every entry, forks included. Returns the number of entries.
 */
async function compareCodingAgent(file: string, where: string, forkDir: string): Promise<number> {
  const text = readFileSync(file, "utf8");
  const session = Session.fromText(text, { reader: "ca" });
  const sm = ca.SessionManager.open(file, forkDir);
  const entries = sm.getEntries();
  const byId = new Map(entries.map((e) => [e.id, e]));

  const ourLabels = session.labels("ca");
  sameFileFacts(session, sm, session.tree.leaf("ca"), ourLabels, where, same);
  for (const entry of entries) same(ourLabels.get(entry.id)?.label, sm.getLabel(entry.id), `${where}: label of ${entry.id}`);

  // /tree: roots in file order, children by timestamp (stable sort)
  const piTree: [string, string[]][] = [];
  const walk = (nodes: CaTreeNode[]) => {
    for (const node of nodes) {
      piTree.push([node.entry.id, node.children.map((c) => c.entry.id)]);
      walk(node.children);
    }
  };
  const piRoots = sm.getTree();
  walk(piRoots);
  if (piRoots.length > 1) seen.caSeveralRoots++;
  const position = new Map(entries.map((e, i) => [e.id, i]));
  for (const [, children] of piTree) {
    if (children.some((id, i) => i > 0 && position.get(id)! < position.get(children[i - 1]!)!)) seen.caSiblingsReordered++;
    if (children.some((id, i) => i > 0 && byId.get(id)!.timestamp === byId.get(children[i - 1]!)!.timestamp)) seen.caSiblingsSameTimestamp++;
  }
  if (entries.some((e) => e.type === "session_info") && sm.getSessionName() === undefined) seen.caNameCleared++;
  if (entries.some((e) => e.type === "label" && !e.label)) seen.caLabelCleared++;
  const ourTree: [string, string[]][] = [];
  const walkOurs = (nodeIds: readonly string[]) => {
    for (const id of nodeIds) {
      ourTree.push([id, [...session.tree.children(id)]]);
      walkOurs(session.tree.children(id));
    }
  };
  walkOurs(session.tree.roots);
  same(ourTree, piTree, `${where}: getTree`);

  // the context at the file's leaf, through the SessionManager method
  const atLeaf = session.context(session.tree.leaf("ca"), "ca");
  const piAtLeaf = sm.buildSessionContext();
  sameMessages(
    atLeaf.messages.map((m) => m.message),
    piAtLeaf.messages,
    `${where}: buildSessionContext() at the leaf`,
  );
  same([atLeaf.model, atLeaf.thinkingLevel], [piAtLeaf.model, piAtLeaf.thinkingLevel], `${where}: settings at the leaf`);

  // the context before any entry
  const ourEmpty = session.context(null, "ca");
  same(
    { messages: ourEmpty.messages.map((m) => m.message), model: ourEmpty.model, thinkingLevel: ourEmpty.thinkingLevel },
    ca.buildSessionContext(entries, null, byId),
    `${where}: context(null)`,
  );

  // Forks. Every entry is forked by pi's createBranchedSession on a fresh session manager for this file.
  // Writing a file per fork is what makes this test slow, so pi writes to disk (and, for two entries, after a
  // real SessionManager.open) for the file leaf and every PERSISTED_FORK_EVERY-th entry; the other entries are
  // forked by the same method in pi's in-memory mode (same entries and labels, no parentSession, nothing written),
  // from what SessionManager.open parsed (handed to pi's constructor as open() itself does for large headers).
  const loaded = ca.loadEntriesFromFile(file);
  const cwd = (loaded[0] as { cwd: string }).cwd;
  const reopen = new Set([entries.length - 1, entries.length >> 1]);
  entries.forEach((entry, k) => {
    const at = `${where} entry ${entry.id}`;
    const piPath = sm.getBranch(entry.id);
    same(ids(session.branch(entry.id, "ca")), ids(piPath), `${at}: getBranch`);
    const ours = session.context(entry.id, "ca");
    const piEntries = ca.buildContextEntries(entries, entry.id, byId);
    same(ours.entryIds, ids(piEntries), `${at}: buildContextEntries`);
    const theirs = ca.buildSessionContext(entries, entry.id, byId);
    if (theirs.messages.filter((m) => (m as { role?: string }).role === "compactionSummary").length > 1) seen.caTwoCompactionSummaries++;
    if (piEntries[0]?.type === "compaction" && piEntries.length - 1 > piPath.length - 1 - piPath.indexOf(piEntries[0])) seen.caKeptRangeBeforeCompaction++;
    if (ours.messages.some((m) => m.source === "synthesized" && session.tree.get(m.entryId)?.type === "message")) seen.caNullContentFixed++;
    sameMessages(
      ours.messages.map((m) => m.message),
      theirs.messages,
      `${at}: messages`,
    );
    same(ours.model, theirs.model, `${at}: model`);
    same(ours.thinkingLevel, theirs.thinkingLevel, `${at}: thinkingLevel`);
    countModelView(sameModelView(modelView(session, entry.id, "ca"), theirs.messages, caProjection, at, same));
    const compaction = sameCompaction(session, entry.id, piPath, caCompaction, KEEP_RECENT[k % KEEP_RECENT.length]!, at, same);
    if (compaction.prepared) seen.compactionPrepared++;
    if (compaction.split) seen.compactionSplitTurn++;
    if (compaction.previous) seen.compactionExtendsPrevious++;

    const persisted = reopen.has(k) || k % PERSISTED_FORK_EVERY === 0;
    const forker = reopen.has(k)
      ? ca.SessionManager.open(file, forkDir)
      : new ca.SessionManager(cwd, persisted ? forkDir : "", file, persisted, undefined, loaded.slice());
    const { piText, fork, forkFile, written, labelIds } = forkBoth(forker, session, entry.id);
    same(fork.text, piText, `${at}: createBranchedSession file`);
    if (labelIds.length) seen.caForkRelabelled++;
    if (piPath.some((e) => e.type === "label")) seen.caForkDroppedLabelEntries++;
    if (persisted && !written) seen.caForkNotWritten++;
    if (persisted) {
      same(fork.fileName, forkFile === undefined ? undefined : path.basename(forkFile), `${at}: fork file name`);
      same(fork.hasAssistant, written, `${at}: fork written at once`);
      totals.caForksWritten++;
    }
    totals.caForks++;
  });

  // /tree from one entry to another: what pi would summarize
  await compareBranchSummaries(session, sm, caSummary, ids(entries), where);
  return entries.length;
}

/** Branch-summary previews for pairs of entries of the file, through pi's own functions on `piSession`. */
async function compareBranchSummaries(session: Session, piSession: unknown, pi: PiBranchSummary, entryIds: string[], where: string): Promise<void> {
  const pairs = summaryPairs(entryIds, 6, entryIds.length * 31 + where.length);
  for (const [index, [from, to]] of pairs.entries()) {
    const budget = SUMMARY_BUDGETS[index % SUMMARY_BUDGETS.length]!;
    const result = await sameBranchSummary(session, piSession, pi, from, to, budget, where, same);
    if (result.entries > 0) seen.summaryEntries++;
    if (result.overBudget) seen.summaryOverBudget++;
    for (const role of result.convertedRoles) {
      if (role === "bashExecution") seen.summaryBashExecution++;
      else if (role === "branchSummary") seen.summaryStoredBranchSummary++;
      else if (role === "compactionSummary") seen.summaryStoredCompactionSummary++;
    }
  }
  await sameBranchSummary(session, piSession, pi, null, entryIds[0] ?? "none", 0, where, same);
}

// ---------------------------------------------------------------------------
// Harness (pi-agent-core 0.83)
// ---------------------------------------------------------------------------

/** Read `text` with the harness's JsonlSessionStorage and with ours (reader "hx"); compare at every entry. */
async function compareHarness(text: string, where: string): Promise<number> {
  const fs = new MemoryFileSystem();
  const file = "/sessions/reread.jsonl";
  fs.files.set(file, text);
  const storage = await hx.JsonlSessionStorage.open(fs, file);
  const harness = new hx.Session(storage);
  const session = Session.fromText(text, { reader: "hx" });
  const entries = await storage.getEntries();
  const reader: RuleSetId = "hx";

  same(session.rulesChoice.harnessError, null, `${where}: harness refusal`);
  same(
    session.tree.entries.map((e) => e.id),
    ids(entries),
    `${where}: entries`,
  );
  const leaf = await storage.getLeafId();
  same(session.tree.leaf("hx"), leaf, `${where}: leaf`);
  if (entries.length && leaf !== entries[entries.length - 1]!.id) seen.hxLeafNotLastLine++;
  if (entries.length && leaf === null) seen.hxLeafNull++;
  same(session.name, (await storage.getSessionName()) ?? null, `${where}: name`);
  const ourLabels = session.labels("hx");
  let labelled = 0;
  for (const entry of entries) {
    const label = await storage.getLabel(entry.id);
    if (label !== undefined) labelled++;
    same(ourLabels.get(entry.id)?.label, label, `${where}: label of ${entry.id}`);
  }
  same(ourLabels.size, labelled, `${where}: label count`);

  const compareAt = async (id: string | null, at: string) => {
    const theirsPath = await settle(() => storage.getPathToRootOrCompaction(id));
    const oursPath = await settle(() => (id === null ? [] : session.branch(id, reader)));
    sameOutcome(oursPath, theirsPath, `${at}: getBranch`, (a, b) => same(ids(a), ids(b), `${at}: getBranch`));
    if (id !== null && theirsPath.ok && theirsPath.value.length < session.branch(id, "ca").length) seen.hxPathStopsAtCompaction++;
    const ours = await settle(() => session.context(id, reader));
    const theirs = await settle(async () => {
      const pathEntries = await storage.getPathToRootOrCompaction(id);
      return { ...hx.buildSessionContext(pathEntries), entryIds: ids(hx.buildContextEntries(pathEntries)) };
    });
    sameOutcome(ours, theirs, `${at}: context`, (a, b) => {
      same(a.entryIds, b.entryIds, `${at}: buildContextEntries`);
      sameMessages(
        a.messages.map((m) => m.message),
        b.messages,
        `${at}: messages`,
      );
      same(a.model, b.model, `${at}: model`);
      same(a.thinkingLevel, b.thinkingLevel, `${at}: thinkingLevel`);
      same(a.activeToolNames ?? null, b.activeToolNames, `${at}: activeToolNames`);
      if (b.activeToolNames) seen.hxActiveTools++;
      countModelView(sameModelView(modelView(session, id, reader), b.messages, hxProjection, at, same));
      if (a.messages.some((m) => m.source === "retainedTail")) seen.hxRetainedTail++;
      if (id !== null) {
        const caView = session.context(id, "ca");
        if (stableStringify([caView.model, caView.thinkingLevel]) !== stableStringify([b.model, b.thinkingLevel])) seen.hxSettingsDifferFromCa++;
      }
    });
  };

  // compaction at every entry, on the harness's own path
  for (const [k, entry] of entries.entries()) {
    const piPath = await settle(() => storage.getPathToRootOrCompaction(entry.id));
    if (!piPath.ok) continue; // the path itself fails: compared above
    const result = sameCompaction(
      session,
      entry.id,
      piPath.value,
      hxCompaction,
      KEEP_RECENT[k % KEEP_RECENT.length]!,
      `${where} entry ${entry.id}`,
      same,
      unwrapResult,
    );
    if (result.prepared) seen.hxCompactionPrepared++;
  }

  // repo.fork at every entry and before it, into the same in-memory file system: the file it writes, byte for byte
  const repo = new hx.JsonlSessionRepo({ fs, sessionsRoot: "/sessions/root" });
  const source = await hx.loadJsonlSessionMetadata(fs, file);
  for (const [k, entry] of entries.entries()) {
    for (const position of ["at", "before"] as const) {
      const at = `${where} entry ${entry.id}: repo.fork ${position}`;
      const id = `fork-${k}-${position}`;
      const theirs = await settle(async () => {
        const forked = await repo.fork(source, { cwd: source.cwd, entryId: entry.id, position, id });
        const forkFile = forked.getStorage().filePath;
        return { text: fs.files.get(forkFile)!, fileName: path.posix.basename(forkFile) };
      });
      const timestamp = theirs.ok ? (JSON.parse(theirs.value.text.slice(0, theirs.value.text.indexOf("\n"))) as { timestamp: string }).timestamp : undefined;
      const ours = await settle(() => session.fork(entry.id, { sessionId: id, timestamp, sourcePath: file, position }, reader));
      sameOutcome(ours, theirs, at, (a, b) => {
        same(a.text, b.text, `${at}: file`);
        // pi names the file from one clock read and stamps the header from the next: they can differ by a millisecond
        same(a.fileName.replace(/^[^_]*_/, ""), b.fileName.replace(/^[^_]*_/, ""), `${at}: file name`);
      });
      if (!theirs.ok) seen.hxForkRefused++;
      else if (position === "at") seen.hxForkAt++;
      else seen.hxForkBefore++;
      if (theirs.ok && entry.type === "compaction") seen.hxForkBehindCompaction++;
    }
  }

  await compareAt(null, `${where} leaf null`);
  for (const entry of entries) await compareAt(entry.id, `${where} entry ${entry.id}`);

  // the file's own leaf, through the Session class
  const ours = session.context(leaf, reader);
  const theirs = await harness.buildContext();
  same(
    ours.messages.map((m) => m.message),
    theirs.messages,
    `${where}: buildContext at the file leaf`,
  );
  same(ours.model, theirs.model, `${where}: model at the file leaf`);
  await compareBranchSummaries(session, harness, hxSummary, ids(entries), where);
  return entries.length;
}

// ---------------------------------------------------------------------------
// Generating sessions
// ---------------------------------------------------------------------------

const CWDS = ["/home/dev/projects/webapp", "/srv/app", "/home/dev/my app", "/home/dev/x:y", "/work"];

function startClock(rng: Rng): SessionClock {
  const start = Date.UTC(2025, 0, 1) + rng.int(500 * 86_400_000);
  return new SessionClock(rng, start, (ms) => vi.setSystemTime(ms));
}

/** Keep a failing session's file and name it, and how to replay the session alone, in the error. */
async function reporting<T>(where: string, replay: string, file: () => string | null, run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Error) {
      const source = file();
      let kept = "";
      if (source !== null) {
        const keep = path.join(os.tmpdir(), `pi-diff-${where.replace(/[^\w-]+/g, "_")}.jsonl`);
        writeFileSync(keep, source);
        kept = `; the file is kept at ${keep}`;
      }
      error.message = `${error.message}\n(${where}; replay with ${replay} npx vitest run lib/session/differential.test.ts${kept})`;
    }
    throw error;
  }
}

async function runCodingAgentSession(index: number): Promise<void> {
  const rng = new Rng(sessionSeed(SEED, index));
  const where = `seed ${SEED} ca-session ${index}`;
  const replay = `DIFF_SEED=${SEED} DIFF_ONLY=${index} DIFF_HX_SESSIONS=0`;
  const dir = path.join(workDir, "ca");
  const forkDir = path.join(workDir, "forks");
  vi.useFakeTimers({ toFake: ["Date"] });
  let text: string | null = null;
  let file: string | undefined;
  try {
    const clock = startClock(rng);
    const sm = ca.SessionManager.create(rng.pick(CWDS), dir);
    file = sm.getSessionFile()!;
    await reporting(
      where,
      replay,
      () => serialize([sm.getHeader(), ...sm.getEntries()]),
      () => driveCodingAgent(sm, rng, () => clock.tick(), sessionSize(rng), storedSummaryOps(sm, rng)),
    );
    const expected = serialize([sm.getHeader(), ...sm.getEntries()]);
    // pi writes the file at the first assistant message; without one, write what it holds, as its _rewriteFile would
    if (existsSync(file)) same(readFileSync(file, "utf8"), expected, `${where}: pi's file holds its entries`);
    else writeFileSync(file, expected);
    text = expected;
    // pi's real clock from here on (the fake one slows every Date pi and we create); forks take pi's timestamp
    vi.useRealTimers();
    const source = file;
    totals.caEntries += await reporting(
      where,
      replay,
      () => text,
      () => compareCodingAgent(source, where, forkDir),
    );
    totals.crossHxEntries += await reporting(
      `${where} (read by the harness)`,
      replay,
      () => text,
      () => compareHarness(expected, `${where} (read by the harness)`),
    );
    totals.caSessions++;
  } finally {
    vi.useRealTimers();
    if (file) rmSync(file, { force: true });
  }
}

async function runHarnessSession(index: number): Promise<void> {
  const rng = new Rng(sessionSeed(SEED ^ 0x5a5a5a5a, index));
  const where = `seed ${SEED} hx-session ${index}`;
  const replay = `DIFF_SEED=${SEED} DIFF_ONLY=${index} DIFF_SESSIONS=0`;
  const forkDir = path.join(workDir, "forks");
  vi.useFakeTimers({ toFake: ["Date"] });
  const fs = new MemoryFileSystem();
  const memoryFile = `/sessions/hx-${index}.jsonl`;
  const file = path.join(workDir, `hx-${index}.jsonl`);
  try {
    const clock = startClock(rng);
    const cwd = rng.pick(CWDS);
    const hex = (digits: number) => Array.from({ length: digits }, () => rng.int(16).toString(16)).join("");
    const sessionId = `${hex(8)}-${hex(4)}-7${hex(3)}-${rng.pick(["8", "9", "a", "b"])}${hex(3)}-${hex(12)}`;
    const storage = await hx.JsonlSessionStorage.create(fs, memoryFile, {
      cwd,
      sessionId,
      parentSessionPath: rng.chance(0.2) ? `/home/dev/.pi/agent/sessions/--srv-app--/earlier_${index}.jsonl` : undefined,
      metadata: rng.chance(0.3) ? { title: "generated", tags: ["a", "b"], n: index } : undefined,
    });
    const harness = new hx.Session(storage);
    await reporting(
      where,
      replay,
      () => fs.files.get(memoryFile) ?? null,
      () => driveHarness(harness, rng, () => clock.tick(), sessionSize(rng)),
    );
    const text = fs.files.get(memoryFile)!;
    vi.useRealTimers();
    totals.hxEntries += await reporting(
      where,
      replay,
      () => text,
      () => compareHarness(text, where),
    );
    // the same file through the coding agent, which reads `leaf` lines as ordinary entries
    writeFileSync(file, text);
    totals.crossCaEntries += await reporting(
      `${where} (read by the coding agent)`,
      replay,
      () => text,
      () => compareCodingAgent(file, `${where} (read by the coding agent)`, forkDir),
    );
    totals.hxSessions++;
  } finally {
    vi.useRealTimers();
    rmSync(file, { force: true });
  }
}

function batches(total: number): [number, number][] {
  if (ONLY !== null) return ONLY < total ? [[ONLY, ONLY + 1]] : [];
  const out: [number, number][] = [];
  for (let start = 0; start < total; start += BATCH) out.push([start, Math.min(total, start + BATCH)]);
  return out;
}

describe(`differential against pi (seed ${SEED})`, () => {
  const caBatches = batches(CA_SESSIONS);
  if (caBatches.length)
    describe("coding agent SessionManager (0.84.1): every entry's branch, context and fork; the harness reading the same files", () => {
      for (const [from, to] of caBatches) {
        it(`sessions ${from}–${to - 1}`, async () => {
          for (let i = from; i < to; i++) await runCodingAgentSession(i);
        });
      }
    });

  const hxBatches = batches(HX_SESSIONS);
  if (hxBatches.length)
    describe("harness Session over JsonlSessionStorage (pi-agent-core 0.83): every entry's branch and context; the coding agent reading the same files", () => {
      for (const [from, to] of hxBatches) {
        it(`sessions ${from}–${to - 1}`, async () => {
          for (let i = from; i < to; i++) await runHarnessSession(i);
        });
      }
    });

  it("covered enough", () => {
    console.log(`differential (seed ${SEED}): ${JSON.stringify(totals)}\ncases seen: ${JSON.stringify(seen)}`);
    if (ONLY !== null) return;
    expect(totals.caSessions, "coding-agent sessions compared to the end (see the failures above)").toBe(CA_SESSIONS);
    expect(totals.hxSessions, "harness sessions compared to the end (see the failures above)").toBe(HX_SESSIONS);
    if (CA_SESSIONS >= 200 && HX_SESSIONS >= 50) {
      for (const [name, n] of Object.entries(seen)) expect(n, `no session exercised ${name}`).toBeGreaterThan(0);
    }
  });
});

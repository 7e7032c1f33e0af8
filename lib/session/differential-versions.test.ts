/**
 * Differential test against pi's newer versions. Random sessions are written by
 * each version's own SessionManager — pi-coding-agent 0.86.1, 0.87.1 and 1.6.0
 * (npm aliases) — using what those versions add (usage entries, system
 * messages, compactions that store a systemMessage or keep from themselves,
 * context_edit entries), then read back by the same version and by this library
 * with the rules it picks for the file. For every entry: the branch, the context
 * entries, the messages, model and thinking level, and the file
 * createBranchedSession writes; per file the leaf, name and labels.
 *
 * v4 logs are written by pi-agent-core 0.84.1's Session over its JSONL storage
 * (lanes, facts, records, compactions with retainedTail, deferred messages) and
 * compared with what that storage and its context builder answer: entries, lanes
 * and their leaves, labels, name, usage stats, and every entry's branch and
 * context.
 *
 * DIFF_VERSIONS_SEED, DIFF_VERSIONS_SESSIONS (per coding-agent version) and
 * DIFF_V4_SESSIONS replay or widen the run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { estimateContextTokens, forkV4Log, modelView, Session, type Ca086ForkResult, type JsonObject, type RuleSetId } from "./index";
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
  type ModelViewCases,
  type PiProjection,
  type CaModule as OracleCaModule,
  type PiContext,
  type V4Storage,
} from "./testing/oracle";
import { driveCodingAgent, SessionClock, sessionSeed, sessionSize } from "./testing/random-session";
import { Rng } from "./testing/rng";
import { driveV4, caOpsSince086, type CaSessionManager086, type V4Entry, type V4Session } from "./testing/random-session-versions";

const SEED = Number(process.env.DIFF_VERSIONS_SEED ?? 20261202);
const SESSIONS = Number(process.env.DIFF_VERSIONS_SESSIONS ?? 20);
const V4_SESSIONS = Number(process.env.DIFF_V4_SESSIONS ?? 25);
const PERSISTED_FORK_EVERY = 5;

type CaModule = OracleCaModule<CaSessionManager086>;

/** One pi-coding-agent version under test and the rules that read what it writes. */
interface Version {
  name: string;
  pkg: string;
  rules: RuleSetId;
  /** ≥ 0.99: the file (and a fork) is written at the first user message, not the first assistant message */
  writesAtFirstUser: boolean;
  mod?: CaModule;
  projection?: PiProjection;
  summary?: PiBranchSummary;
  compaction?: PiCompaction;
}

const VERSIONS: Version[] = [
  { name: "0.86.1", pkg: "pi-coding-agent-0861", rules: "ca-0.86", writesAtFirstUser: false },
  { name: "0.87.1", pkg: "pi-coding-agent-0871", rules: "ca-0.87", writesAtFirstUser: false },
  { name: "1.6.0", pkg: "pi-coding-agent-160", rules: "ca-0.87", writesAtFirstUser: true },
];

interface V4Modules {
  JsonlSessionStorage: {
    load(fs: unknown, path: string): Promise<V4Storage>;
    create(fs: unknown, path: string, header: Record<string, unknown>): Promise<V4Storage>;
  };
  Session: new (storage: V4Storage, options?: { idGenerator?: { next(): string } }) => V4Session;
  buildSessionContext(pathEntries: V4Entry[]): PiContext;
  buildContextEntries(pathEntries: V4Entry[]): V4Entry[];
  NodeExecutionEnv: new (options: { cwd: string }) => unknown;
  JsonlSessionRepo: new (options: { fs: unknown; sessionsRoot: string }) => {
    fork(
      source: { id: string; path: string },
      options: { cwd: string; entryId: string; position: "at" | "before" },
    ): Promise<{ getMetadata(): Promise<{ path: string }> }>;
  };
}

let v4: V4Modules;
let v4Projection: PiProjection;
let v4Summary: PiBranchSummary;
let v4Compaction: PiCompaction;
let workDir: string;

beforeAll(async () => {
  for (const version of VERSIONS) {
    version.mod = (await import(moduleUrl(`${version.pkg}/dist/core/session-manager.js`))) as CaModule;
    version.projection = await loadProjection(version.pkg, "coding-agent");
    version.summary = await loadBranchSummary(version.pkg, "coding-agent");
    version.compaction = await loadCompaction(version.pkg, "coding-agent");
  }
  v4Projection = await loadProjection("pi-agent-core-v4", "harness");
  v4Summary = await loadBranchSummary("pi-agent-core-v4", "harness");
  v4Compaction = await loadCompaction("pi-agent-core-v4", "harness");
  const base = "pi-agent-core-v4/dist/harness";
  const storage = await import(moduleUrl(`${base}/session/jsonl/storage.js`));
  const session = await import(moduleUrl(`${base}/session/session.js`));
  const context = await import(moduleUrl(`${base}/session/context.js`));
  const env = await import(moduleUrl(`${base}/env/nodejs.js`));
  const repo = await import(moduleUrl(`${base}/session/jsonl/repo.js`));
  v4 = {
    JsonlSessionStorage: storage.JsonlSessionStorage,
    Session: session.Session,
    buildSessionContext: context.buildSessionContext,
    buildContextEntries: context.buildContextEntries,
    NodeExecutionEnv: env.NodeExecutionEnv,
    JsonlSessionRepo: repo.JsonlSessionRepo,
  };
  workDir = mkdtempSync(path.join(os.tmpdir(), "pi-diff-newer-"));
});

afterAll(() => {
  vi.useRealTimers();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** Adds what one model-view comparison met to the run's counts. */
function countModelView(cases: ModelViewCases): void {
  seen.llmSystemSent += cases.systemSent;
  seen.llmBashExcluded += cases.excludedBash;
  if (cases.usageCounted) seen.llmUsageCounted++;
  else if (!cases.piCannotEstimate) seen.llmEstimatedOnly++;
}

const totals = { caSessions: 0, caEntries: 0, caForks: 0, v4Sessions: 0, v4Entries: 0, v4Lanes: 0, checks: 0 };

/** Cases pi's answers must have hit somewhere in the run (counted on pi's side). */
const seen = {
  usageEntry: 0,
  systemMessageInContext: 0,
  compactionSystemMessage: 0,
  systemSkippedInKeptRange: 0,
  contextEditApplied: 0,
  contextEditDropped: 0,
  contextEditOffContext: 0,
  secondSummary086: 0,
  secondSummarySuppressed087: 0,
  compactionKeepsFromItself: 0,
  forkRetargetedFirstKept: 0,
  forkWrittenAtFirstUser: 0,
  autoRulesMatch: 0,
  v4Deferred: 0,
  v4RetainedTail: 0,
  v4SideLaneContext: 0,
  v4EmptyLane: 0,
  v4Labels: 0,
  v4UsageRecords: 0,
  v4Forks: 0,
  llmSystemSent: 0,
  llmBashExcluded: 0,
  llmUsageCounted: 0,
  llmEstimatedOnly: 0,
  llmProjectedUsageDistrusted: 0,
  summaryEntries: 0,
  summaryOverBudget: 0,
  summaryEdited: 0,
  summaryBashExecution: 0,
  summaryStoredBranchSummary: 0,
  summaryStoredCompactionSummary: 0,
  compactionPrepared: 0,
  compactionSplitTurn: 0,
  compactionExtendsPrevious: 0,
  v4CompactionPrepared: 0,
};

function same(actual: unknown, expected: unknown, where: string): void {
  totals.checks++;
  sameJson(actual, expected, where);
}

const role = (m: unknown) => (m as { role?: unknown }).role;

function startClock(rng: Rng): SessionClock {
  return new SessionClock(rng, Date.UTC(2026, 0, 1) + rng.int(300 * 86_400_000), (ms) => vi.setSystemTime(ms));
}

const CWDS = ["/home/dev/projects/webapp", "/srv/app", "/home/dev/my app"];

async function reporting<T>(where: string, text: () => string | null, run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Error) {
      const source = text();
      if (source !== null) {
        const keep = path.join(os.tmpdir(), `pi-diff-newer-${where.replace(/[^\w.-]+/g, "_")}.jsonl`);
        writeFileSync(keep, source);
        error.message = `${error.message}\n(${where}; the file is kept at ${keep})`;
      }
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------
// pi-coding-agent 0.86.1 / 0.87.1 / 1.6.0
// ---------------------------------------------------------------------------

async function compareCodingAgent(version: Version, file: string, where: string, forkDir: string): Promise<number> {
  const ca = version.mod!;
  const text = readFileSync(file, "utf8");
  const auto = Session.fromText(text);
  const reader = version.rules;
  // the rules picked from the file alone are never newer than the writer's, and match them once a trace of that version is there
  const strongest = auto.tree.evidence.strongest;
  if (strongest) {
    expect(["ca-0.86", "ca-0.87"].indexOf(auto.reader), `${where}: rules ${auto.reader} picked from ${strongest.reason}`).toBeLessThanOrEqual(
      ["ca-0.86", "ca-0.87"].indexOf(reader),
    );
    if (auto.reader === reader) seen.autoRulesMatch++;
  } else expect(auto.reader, `${where}: no trace of a newer writer`).toBe("ca");
  const session = Session.fromText(text, { reader });
  const sm = ca.SessionManager.open(file, forkDir);
  const entries = sm.getEntries();
  const byId = new Map(entries.map((e) => [e.id, e]));

  sameFileFacts(session, sm, session.leafId, session.labels(), where, same);
  if (entries.some((e) => e.type === "usage")) seen.usageEntry++;

  const atLeaf = session.context(session.leafId);
  const piAtLeaf = sm.buildSessionContext();
  same(
    atLeaf.messages.map((m) => m.message),
    piAtLeaf.messages,
    `${where}: buildSessionContext() at the leaf`,
  );

  const loaded = ca.loadEntriesFromFile(file);
  const cwd = (loaded[0] as { cwd: string }).cwd;
  entries.forEach((entry, k) => {
    const at = `${where} entry ${entry.id}`;
    const piPath = sm.getBranch(entry.id);
    same(ids(session.branch(entry.id)), ids(piPath), `${at}: getBranch`);
    const ours = session.context(entry.id);
    const piEntries = ca.buildContextEntries(entries, entry.id, byId);
    same(ours.entryIds, ids(piEntries), `${at}: buildContextEntries`);
    same(ids(session.contextEntries(entry.id)), ids(piEntries), `${at}: contextEntries`);
    const theirs = ca.buildSessionContext(entries, entry.id, byId);
    same(
      ours.messages.map((m) => m.message),
      theirs.messages,
      `${at}: messages`,
    );
    same(ours.model, theirs.model, `${at}: model`);
    same(ours.thinkingLevel, theirs.thinkingLevel, `${at}: thinkingLevel`);
    // pi ≥ 0.87 measures the context over its projection and the branch (usage before an edit or compaction is not trusted)
    const projected =
      version.rules === "ca-0.87"
        ? {
            projection: (ca as unknown as { buildSessionProjection(...args: unknown[]): unknown }).buildSessionProjection(entries, entry.id, byId),
            branch: piPath,
          }
        : undefined;
    const view = modelView(session, entry.id);
    const compaction = sameCompaction(session, entry.id, piPath, version.compaction!, KEEP_RECENT[k % KEEP_RECENT.length]!, at, same);
    if (compaction.prepared) seen.compactionPrepared++;
    if (compaction.split) seen.compactionSplitTurn++;
    if (compaction.previous) seen.compactionExtendsPrevious++;
    const cases = sameModelView(view, theirs.messages, version.projection!, at, same, projected);
    countModelView(cases);
    if (projected && view.tokens?.lastUsageIndex === null) {
      const plain = estimateContextTokens(
        theirs.messages.map((m) => m as JsonObject),
        { system: true, safeJson: false },
      );
      if (plain.lastUsageIndex !== null) seen.llmProjectedUsageDistrusted++;
    }

    // what the cases were, on pi's side
    if (theirs.messages.some((m) => role(m) === "system")) seen.systemMessageInContext++;
    if (piEntries[0]?.type === "compaction" && piEntries[0].systemMessage) seen.compactionSystemMessage++;
    const compactionAt = piPath.findIndex((e) => e.id === piEntries[0]?.id);
    if (
      piEntries[0]?.type === "compaction" &&
      piPath
        .slice(0, compactionAt)
        .some(
          (e) =>
            e.type === "message" &&
            role(e.message) === "system" &&
            piPath.slice(0, compactionAt).findIndex((x) => x.id === piEntries[0]!.firstKeptEntryId) >= 0,
        )
    )
      seen.systemSkippedInKeptRange++;
    // a summary stored as a message entry is the entry's message, not one a compaction yields
    const summaries = theirs.messages.filter((m) => role(m) === "compactionSummary" && !piEntries.some((e) => e.type === "message" && e.message === m)).length;
    if (summaries > 1) seen.secondSummary086++;
    if (piEntries.slice(1).some((e) => e.type === "compaction")) {
      if (version.rules === "ca-0.87") expect(summaries, `${at}: one summary from ≥ 0.87`).toBe(1);
      if (version.rules === "ca-0.87") seen.secondSummarySuppressed087++;
    }
    if (piEntries[0]?.type === "compaction" && piEntries[0].firstKeptEntryId === piEntries[0].id) seen.compactionKeepsFromItself++;
    if (ours.messages.some((m) => m.editedBy)) seen.contextEditApplied++;
    const edits = piEntries.filter((e) => e.type === "context_edit");
    if (edits.some((e) => e.replacement === null && piEntries.some((t) => t.id === e.targetId))) seen.contextEditDropped++;
    if (
      piPath.some((e) => e.type === "context_edit") &&
      piPath.filter((e) => e.type === "context_edit").some((e) => !piEntries.some((t) => t.id === e.targetId))
    )
      seen.contextEditOffContext++;

    // forks: in pi's in-memory mode, every PERSISTED_FORK_EVERY-th written to disk
    const persisted = k % PERSISTED_FORK_EVERY === 0 || k === entries.length - 1;
    const forker = new ca.SessionManager(cwd, persisted ? forkDir : "", file, persisted, undefined, loaded.slice());
    const { piText, fork, header, written } = forkBoth<Ca086ForkResult>(forker, session, entry.id);
    same(fork.text, piText, `${at}: createBranchedSession file`);
    const plain = Session.fromText(text, { reader: "ca" }).fork(entry.id, {
      sessionId: header.id as string,
      timestamp: header.timestamp as string,
      sourcePath: header.parentSession as string | undefined,
      labelId: () => "x",
    });
    if (plain.entries.some((e, i) => e.type === "compaction" && e.firstKeptEntryId !== fork.entries[i]?.firstKeptEntryId)) seen.forkRetargetedFirstKept++;
    if (persisted) {
      same(version.writesAtFirstUser ? fork.hasConversation : fork.hasAssistant, written, `${at}: fork written at once`);
      if (written && !fork.hasAssistant) seen.forkWrittenAtFirstUser++;
    }
    totals.caForks++;
  });

  // /tree between entries: 0.87.1 summarizes an edited entry as written, 1.6 as edited; the rules follow 1.6
  const edits = (from: string, to: string) => {
    const preview = safeSummary(session, from, to);
    return preview !== null && preview.entryIds.some((id) => session.tree.get(id)?.type === "context_edit");
  };
  await compareBranchSummaries(session, sm, version.summary!, ids(entries), where, version.name === "0.87.1" ? edits : null);
  return entries.length;
}

function safeSummary(session: Session, from: string, to: string) {
  try {
    return session.branchSummary(from, to, 0);
  } catch {
    return null;
  }
}

/** Branch-summary previews for pairs of entries, through pi's own functions on `piSession`; `skip` leaves out pairs a version reads otherwise. */
async function compareBranchSummaries(
  session: Session,
  piSession: unknown,
  pi: PiBranchSummary,
  entryIds: string[],
  where: string,
  skip: ((from: string, to: string) => boolean) | null,
): Promise<void> {
  const pairs = summaryPairs(entryIds, 8, entryIds.length * 31 + where.length);
  for (const [index, [from, to]] of pairs.entries()) {
    if (skip?.(from, to)) continue;
    const budget = SUMMARY_BUDGETS[index % SUMMARY_BUDGETS.length]!;
    const result = await sameBranchSummary(session, piSession, pi, from, to, budget, where, same);
    if (result.entries > 0) seen.summaryEntries++;
    if (result.overBudget) seen.summaryOverBudget++;
    if (result.entries > 0 && safeSummary(session, from, to)?.entryIds.some((id) => session.tree.get(id)?.type === "context_edit")) seen.summaryEdited++;
    for (const role of result.convertedRoles) {
      if (role === "bashExecution") seen.summaryBashExecution++;
      else if (role === "branchSummary") seen.summaryStoredBranchSummary++;
      else if (role === "compactionSummary") seen.summaryStoredCompactionSummary++;
    }
  }
}

async function runCodingAgentSession(version: Version, index: number): Promise<void> {
  const ca = version.mod!;
  const rng = new Rng(sessionSeed(SEED, index) ^ (version.name.length * 0x1000193));
  const where = `seed ${SEED} ${version.name} session ${index}`;
  const dir = path.join(workDir, `ca-${version.name}`);
  const forkDir = path.join(workDir, "forks");
  vi.useFakeTimers({ toFake: ["Date"] });
  let file: string | undefined;
  let text: string | null = null;
  try {
    const clock = startClock(rng);
    const sm = ca.SessionManager.create(rng.pick(CWDS), dir);
    file = sm.getSessionFile()!;
    const counts = { usage: 0, system: 0, contextEdit: 0 };
    await reporting(
      where,
      () => serialize([sm.getHeader(), ...sm.getEntries()]),
      () => driveCodingAgent(sm, rng, () => clock.tick(), sessionSize(rng), caOpsSince086(sm, rng, counts)),
    );
    const expected = serialize([sm.getHeader(), ...sm.getEntries()]);
    if (existsSync(file)) same(readFileSync(file, "utf8"), expected, `${where}: pi's file holds its entries`);
    else writeFileSync(file, expected);
    text = expected;
    vi.useRealTimers();
    const source = file;
    totals.caEntries += await reporting(
      where,
      () => text,
      () => compareCodingAgent(version, source, where, forkDir),
    );
    totals.caSessions++;
  } finally {
    vi.useRealTimers();
    if (file) rmSync(file, { force: true });
  }
}

// ---------------------------------------------------------------------------
// pi-agent-core 0.84.1 v4 log
// ---------------------------------------------------------------------------

async function compareV4(text: string, file: string, where: string): Promise<number> {
  const env = new v4.NodeExecutionEnv({ cwd: workDir });
  const storage = await v4.JsonlSessionStorage.load(env, file);
  const session = Session.fromText(text);
  same(session.reader, "v4", `${where}: rules`);
  same(
    session.diagnostics().filter((d) => d.severity === "error" && d.kind !== "v4-log"),
    [],
    `${where}: diagnostics`,
  );
  const log = session.parser.v4!;
  same(log.refusal, null, `${where}: refusal`);
  same(session.account().total, text.split("\n").length - 1, `${where}: every line accounted for`);
  same(log.lineKinds.size + 1, session.account().total, `${where}: every line a mutation or the header`);

  const entries = await storage.findEntries({ order: "oldestFirst" });
  same(
    session.tree.entries.map((e) => e.id),
    ids(entries),
    `${where}: entries`,
  );
  const lanes = await storage.getLanes();
  same(
    session.lanes.map((l) => ({ lane: l.lane, leafId: l.leafId })),
    lanes,
    `${where}: lanes`,
  );
  same(session.leafId, lanes.find((l) => l.lane === "main")!.leafId, `${where}: leaf (main lane)`);
  same(session.name, (await storage.getName()) ?? null, `${where}: name`);
  same(log.stats, await storage.getStats(), `${where}: stats`);
  same(
    log.records.map((r) => r.record.id),
    ids(await storage.findRecords({ order: "oldestFirst" })),
    `${where}: records`,
  );
  const labels = session.labels();
  let labelled = 0;
  for (const entry of entries) {
    const label = await storage.getLabel(entry.id);
    if (label !== undefined) labelled++;
    same(labels.get(entry.id)?.label, label, `${where}: label of ${entry.id}`);
  }
  same(labels.size, labelled, `${where}: label count`);
  if (labelled) seen.v4Labels++;
  if (log.records.some((r) => r.record.type === "usage")) seen.v4UsageRecords++;

  const compareAt = async (id: string | null, at: string) => {
    const theirsPath = await settle(() => (id === null ? [] : storage.findEntriesOnBranch({ start: id, order: "oldestFirst" })));
    const oursPath = await settle(() => (id === null ? [] : session.branch(id)));
    if (!theirsPath.ok || !oursPath.ok) {
      expect(oursPath.ok ? "returns" : `throws ${oursPath.error}`, `${at}: branch`).toBe(theirsPath.ok ? "returns" : `throws ${theirsPath.error}`);
      return;
    }
    same(ids(oursPath.value), ids(theirsPath.value), `${at}: branch`);
    const ours = session.context(id);
    const theirs = v4.buildSessionContext(theirsPath.value);
    same(ours.entryIds, ids(v4.buildContextEntries(theirsPath.value)), `${at}: context entries`);
    same(ids(session.contextEntries(id)), ids(v4.buildContextEntries(theirsPath.value)), `${at}: contextEntries`);
    same(
      ours.messages.map((m) => m.message),
      theirs.messages,
      `${at}: messages`,
    );
    same([ours.model, ours.thinkingLevel, ours.activeToolNames], [theirs.model, theirs.thinkingLevel, theirs.activeToolNames], `${at}: settings`);
    if (theirsPath.value.some((e) => e.type === "message" && (e.message as { stopReason?: unknown }).stopReason === "deferred") && ours.entryIds.length)
      seen.v4Deferred++;
    if (ours.messages.some((m) => m.source === "retainedTail")) seen.v4RetainedTail++;
    countModelView(sameModelView(modelView(session, id), theirs.messages, v4Projection, at, same));
  };
  for (const lane of lanes) {
    await compareAt(lane.leafId, `${where} lane ${lane.lane}`);
    if (lane.lane !== "main" && lane.leafId !== null) seen.v4SideLaneContext++;
    if (lane.leafId === null) seen.v4EmptyLane++;
    totals.v4Lanes++;
  }
  for (const entry of entries) await compareAt(entry.id, `${where} entry ${entry.id}`);

  // forks: repo.fork at (the viewer's export) and before a message entry, for some of them
  const repo = new v4.JsonlSessionRepo({ fs: env, sessionsRoot: path.join(workDir, "v4-forks") });
  const source = { id: log.header.id, path: file };
  const messages = entries.filter((e) => e.type === "message");
  for (const [k, entry] of messages.entries()) {
    if (k % 10 !== 0 && k !== messages.length - 1) continue;
    for (const position of ["at", "before"] as const) {
      const at = `${where} fork ${position} ${entry.id}`;
      const forked = await repo.fork(source, { cwd: log.header.cwd, entryId: entry.id, position });
      const forkPath = (await forked.getMetadata()).path;
      const piText = readFileSync(forkPath, "utf8");
      rmSync(forkPath);
      const header = JSON.parse(piText.slice(0, piText.indexOf("\n"))) as { id: string; createdAt: number };
      const options = { sessionId: header.id, timestamp: new Date(header.createdAt).toISOString(), position };
      const ours = position === "at" ? session.fork(entry.id, options) : forkV4Log(session.tree, log, entry.id, options);
      same(ours.text, piText, `${at}: file`);
      same(ours.fileName, path.basename(forkPath), `${at}: file name`);
      seen.v4Forks++;
    }
  }
  await compareBranchSummaries(session, storage, v4Summary, ids(entries), where, null);
  for (const [k, entry] of entries.entries()) {
    const piPath = await settle(() => storage.findEntriesOnBranch({ start: entry.id, order: "oldestFirst" }));
    if (!piPath.ok) continue; // compared as the branch above
    const result = sameCompaction(
      session,
      entry.id,
      piPath.value,
      v4Compaction,
      KEEP_RECENT[k % KEEP_RECENT.length]!,
      `${where} entry ${entry.id}`,
      same,
      unwrapResult,
    );
    if (result.prepared) seen.v4CompactionPrepared++;
  }
  return entries.length;
}

async function runV4Session(index: number): Promise<void> {
  const rng = new Rng(sessionSeed(SEED ^ 0x0404_0404, index));
  const where = `seed ${SEED} v4 session ${index}`;
  const env = new v4.NodeExecutionEnv({ cwd: workDir });
  const file = path.join(workDir, `v4-${index}.jsonl`);
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    const clock = startClock(rng);
    const hex = (digits: number) => Array.from({ length: digits }, () => rng.int(16).toString(16)).join("");
    const header = {
      kind: "header",
      version: 4,
      id: `${hex(8)}-${hex(4)}-7${hex(3)}-8${hex(3)}-${hex(12)}`,
      createdAt: clock.now,
      cwd: rng.pick(CWDS),
      ...(rng.chance(0.3) ? { metadata: { title: "generated" } } : {}),
    };
    const storage = await v4.JsonlSessionStorage.create(env, file, header);
    let n = 0;
    const nextId = () => (rng.chance(0.2) ? `e-${index}-${n++}` : `${hex(8)}-${hex(4)}-7${hex(3)}-9${hex(3)}-${hex(12)}`);
    const session = new v4.Session(storage, { idGenerator: { next: nextId } });
    await reporting(
      where,
      () => (existsSync(file) ? readFileSync(file, "utf8") : null),
      () => driveV4(session, rng, () => clock.tick(), sessionSize(rng), nextId),
    );
    vi.useRealTimers();
    const text = readFileSync(file, "utf8");
    totals.v4Entries += await reporting(
      where,
      () => text,
      () => compareV4(text, file, where),
    );
    totals.v4Sessions++;
  } finally {
    vi.useRealTimers();
    rmSync(file, { force: true });
  }
}

describe(`differential against pi's newer versions (seed ${SEED})`, () => {
  for (const version of VERSIONS) {
    it(`pi-coding-agent ${version.name} (rules ${version.rules}): every entry's branch, context and fork`, async () => {
      for (let i = 0; i < SESSIONS; i++) await runCodingAgentSession(version, i);
    }, 120_000);
  }

  it("pi-agent-core 0.84.1 v4 log: entries, lanes, facts, records, every entry's branch and context", async () => {
    for (let i = 0; i < V4_SESSIONS; i++) await runV4Session(i);
  }, 120_000);

  it("covered enough", () => {
    console.log(`differential-versions (seed ${SEED}): ${JSON.stringify(totals)}\ncases seen: ${JSON.stringify(seen)}`);
    expect(totals.caSessions).toBe(SESSIONS * VERSIONS.length);
    expect(totals.v4Sessions).toBe(V4_SESSIONS);
    if (SESSIONS >= 20 && V4_SESSIONS >= 20) {
      for (const [name, count] of Object.entries(seen)) expect(count, `no session exercised ${name}`).toBeGreaterThan(0);
    }
  });
});

// What the differential tests share: pi's modules loaded by file path (the package roots do not load on
// Node 20), the shapes of the parts they call, and how our answers are compared with pi's.
import { existsSync, readFileSync, unlinkSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "vitest";
import { SessionQueryError, type ForkResult, type ModelView, type Session } from "../index";
import type { V4Entry } from "./random-session-versions";
import { stableStringify } from "./golden";
import { Rng } from "./rng";
import type { WrittenEntry } from "./random-session";

const REPO = path.resolve(__dirname, "../../..");

/** file:// URL of a file inside node_modules, for `import()` */
export const moduleUrl = (file: string) => pathToFileURL(path.join(REPO, "node_modules", file)).href;

export interface PiContext {
  messages: unknown[];
  model: unknown;
  thinkingLevel: unknown;
  activeToolNames?: unknown;
}

/** pi-coding-agent's dist/core/session-manager.js, for any version's SessionManager shape */
export interface CaModule<Manager> {
  SessionManager: {
    new (cwd: string, sessionDir: string, sessionFile: string, persist: boolean, newSessionOptions: undefined, preloadedFileEntries: unknown[]): Manager;
    create(cwd: string, sessionDir: string): Manager;
    open(file: string, sessionDir?: string): Manager;
  };
  buildContextEntries(entries: WrittenEntry[], leafId: string | null, byId?: Map<string, WrittenEntry>): WrittenEntry[];
  buildSessionContext(entries: WrittenEntry[], leafId: string | null, byId?: Map<string, WrittenEntry>): PiContext;
  loadEntriesFromFile(file: string): unknown[];
}

export const jsonRound = (value: unknown) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/**
 * Equal after a JSON round trip (key order and `undefined` fields do not
 * count). Cheap when equal: only a mismatch goes through `expect`, for its diff.
 */
export function sameJson(actual: unknown, expected: unknown, where: string): void {
  if (actual === expected) return;
  if (typeof actual === "object" && typeof expected === "object" && actual !== null && expected !== null) {
    if (JSON.stringify(actual) === JSON.stringify(expected) || stableStringify(actual) === stableStringify(expected)) return;
  }
  expect(jsonRound(actual), where).toEqual(jsonRound(expected));
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** A query's answer or the error pi and we both throw for bad input; anything else is a bug and rethrown. */
export async function settle<T>(run: () => T | Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof SessionQueryError || (error instanceof Error && error.name === "SessionError")) return { ok: false, error: error.message };
    throw error;
  }
}

export const ids = (entries: readonly { id: string }[]) => entries.map((e) => e.id);

/** entries as JSONL, as pi writes them */
export const serialize = (lines: readonly unknown[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join("");

/** What every pi-coding-agent version's SessionManager says of a whole file. */
export interface CaFileView {
  getHeader(): unknown;
  getEntries(): { id: string }[];
  getLeafId(): string | null;
  getSessionName(): string | undefined;
}

/** The SessionManager's label maps (private fields): value and timestamp per target, in the order forks write them. */
interface CaLabelMaps {
  labelsById: Map<string, string>;
  labelTimestampsById: Map<string, unknown>;
}

/**
 * The file-level answers of our Session and pi's SessionManager agree: no
 * errors, the header, the entries in file order, the leaf, the name and the
 * labels (with timestamps, in pi's map order). `check` counts and compares.
 */
export function sameFileFacts(
  session: Session,
  sm: CaFileView,
  leafId: string | null,
  labels: ReturnType<Session["labels"]>,
  where: string,
  check = sameJson,
): void {
  check(
    session.diagnostics().filter((d) => d.severity === "error"),
    [],
    `${where}: diagnostics`,
  );
  check(session.header, sm.getHeader(), `${where}: header`);
  check(
    session.tree.entries.map((e) => e.id),
    ids(sm.getEntries()),
    `${where}: entries`,
  );
  check(leafId, sm.getLeafId(), `${where}: leaf`);
  check(session.name, sm.getSessionName() ?? null, `${where}: name`);
  const piLabels = sm as unknown as CaLabelMaps;
  check(
    [...labels].map(([target, s]) => [target, s.label, s.timestamp]),
    [...piLabels.labelsById].map(([target, label]) => [target, label, piLabels.labelTimestampsById.get(target)]),
    `${where}: labels`,
  );
}

/** A SessionManager about to fork: what createBranchedSession writes, or keeps in memory when not persisting. */
export interface CaForker {
  createBranchedSession(leafId: string): string | undefined;
  getHeader(): Record<string, unknown> | null;
  getEntries(): { id: string; type: string }[];
}

/**
 * pi's createBranchedSession at `entryId` (the file it wrote, read and
 * removed; or its entries as pi would write them) and our fork of the same
 * entry with the ids and time pi chose, for comparing the two texts.
 */
export function forkBoth<Fork extends ForkResult>(
  forker: CaForker,
  session: Session,
  entryId: string,
): { piText: string; fork: Fork; header: Record<string, unknown>; forkFile: string | undefined; written: boolean; labelIds: string[] } {
  const forkFile = forker.createBranchedSession(entryId);
  const header = forker.getHeader()!;
  const forkEntries = forker.getEntries();
  const written = forkFile !== undefined && existsSync(forkFile);
  const piText = written ? readFileSync(forkFile, "utf8") : serialize([header, ...forkEntries]);
  if (written) unlinkSync(forkFile);
  const labelIds = forkEntries.filter((e) => e.type === "label").map((e) => e.id);
  let next = 0;
  const fork = session.fork(entryId, {
    sessionId: header.id as string,
    timestamp: header.timestamp as string,
    sourcePath: header.parentSession as string | undefined,
    labelId: () => labelIds[next++]!,
  }) as Fork;
  return { piText, fork, header, forkFile, written, labelIds };
}

/** pi-agent-core's v4 session storage, as the differential tests read it. */
export interface V4Storage {
  getLanes(): Promise<{ lane: string; leafId: string | null }[]>;
  findEntries(query?: Record<string, unknown>): Promise<V4Entry[]>;
  findEntriesOnBranch(query: Record<string, unknown>): Promise<V4Entry[]>;
  getName(): Promise<string | undefined>;
  getLabel(id: string): Promise<string | undefined>;
  getStats(): Promise<unknown>;
  findRecords(query?: Record<string, unknown>): Promise<{ id: string; seq: number }[]>;
}

/** pi's last projection step and its token accounting, from one version's own modules. */
export interface PiProjection {
  convertToLlm(messages: unknown[]): unknown[];
  estimateContextTokens(messages: unknown[]): unknown;
  estimateTokens(message: unknown): number;
  /** pi-coding-agent ≥ 0.87 */
  estimateProjectedContextTokens?(projection: unknown, branch: unknown[]): unknown;
}

/** A pi-coding-agent package's (`dist/core`) or a pi-agent-core package's (`dist/harness`) convertToLlm and compaction module. */
export async function loadProjection(pkg: string, kind: "coding-agent" | "harness"): Promise<PiProjection> {
  const dir = kind === "coding-agent" ? "dist/core" : "dist/harness";
  const messages = (await import(moduleUrl(`${pkg}/${dir}/messages.js`))) as Pick<PiProjection, "convertToLlm">;
  const compaction = (await import(moduleUrl(`${pkg}/${dir}/compaction/compaction.js`))) as Omit<PiProjection, "convertToLlm">;
  return {
    convertToLlm: messages.convertToLlm,
    estimateContextTokens: compaction.estimateContextTokens,
    estimateTokens: compaction.estimateTokens,
    estimateProjectedContextTokens: compaction.estimateProjectedContextTokens,
  };
}

/** What one comparison of the model's view met, for the run's case counts. */
export interface ModelViewCases {
  excludedBash: number;
  converted: number;
  systemSent: number;
  usageCounted: boolean;
  piCannotEstimate: boolean;
}

/**
 * Our view of what the model is sent at `id` (modelView) equals pi's: its
 * convertToLlm over its own context messages, each message's estimateTokens,
 * and the context's estimate — estimateContextTokens, or with `projected`
 * (pi ≥ 0.87) estimateProjectedContextTokens over pi's projection and branch.
 * Where pi throws, ours must say it cannot estimate.
 */
export function sameModelView(
  ours: ModelView,
  piMessages: unknown[],
  pi: PiProjection,
  where: string,
  check: (actual: unknown, expected: unknown, where: string) => void = sameJson,
  projected?: { projection: unknown; branch: unknown[] },
): ModelViewCases {
  const piLlm = pi.convertToLlm(piMessages);
  check(
    ours.llm.map((m) => m.message),
    piLlm,
    `${where}: convertToLlm`,
  );
  piMessages.forEach((message, i) => {
    let theirs: number | null;
    try {
      theirs = pi.estimateTokens(message);
    } catch {
      theirs = null;
    }
    check(ours.messageTokens[i], theirs, `${where}: estimateTokens of message ${i}`);
  });
  let theirs: unknown = null;
  let threw = false;
  try {
    theirs = projected ? pi.estimateProjectedContextTokens!(projected.projection, projected.branch) : pi.estimateContextTokens(piMessages);
  } catch {
    threw = true;
  }
  if (threw) expect(ours.tokensError, `${where}: pi cannot estimate, neither can we`).not.toBeNull();
  else check(ours.tokens, theirs, `${where}: ${projected ? "estimateProjectedContextTokens" : "estimateContextTokens"}`);
  const roles = (piMessages as { role?: unknown; excludeFromContext?: unknown }[]).map((m) => m.role);
  return {
    excludedBash: (piMessages as { role?: unknown; excludeFromContext?: unknown }[]).filter((m) => m.role === "bashExecution" && m.excludeFromContext).length,
    converted: roles.filter((r) => r === "bashExecution" || r === "custom" || r === "branchSummary" || r === "compactionSummary").length,
    systemSent: (piLlm as { role?: unknown }[]).filter((m) => m.role === "system").length,
    usageCounted: !threw && (theirs as { lastUsageIndex: unknown }).lastUsageIndex !== null,
    piCannotEstimate: threw,
  };
}

/** roles of stored messages pi converts for the model rather than sending as they are */
const CONVERTED_ROLES = new Set<unknown>(["bashExecution", "branchSummary", "compactionSummary"]);

/** pi's /tree summary preparation, from one version's own branch-summarization and utils modules. */
export interface PiBranchSummary {
  collectEntriesForBranchSummary(
    session: unknown,
    oldLeafId: string | null,
    targetId: string,
  ): { entries: { id: string }[]; commonAncestorId: string | null } | Promise<{ entries: { id: string }[]; commonAncestorId: string | null }>;
  prepareBranchEntries(entries: unknown[], tokenBudget: number): { messages: unknown[]; fileOps: unknown; totalTokens: number };
  computeFileLists(fileOps: unknown): { readFiles: string[]; modifiedFiles: string[] };
}

export async function loadBranchSummary(pkg: string, kind: "coding-agent" | "harness"): Promise<PiBranchSummary> {
  const dir = kind === "coding-agent" ? "dist/core/compaction" : "dist/harness/compaction";
  const summary = (await import(moduleUrl(`${pkg}/${dir}/branch-summarization.js`))) as Omit<PiBranchSummary, "computeFileLists">;
  const utils = (await import(moduleUrl(`${pkg}/${dir}/utils.js`))) as Pick<PiBranchSummary, "computeFileLists">;
  return { ...summary, computeFileLists: utils.computeFileLists };
}

/** Budgets the summary comparisons cycle through: none, tiny (a summary may go over), small, pi's own for a 200k window. */
export const SUMMARY_BUDGETS = [0, 40, 400, 4000, 200000 - 16384];

/** Deterministic (old leaf, target) pairs among `ids`, about `count` of them. */
export function summaryPairs(ids: readonly string[], count: number, seed: number): [string, string][] {
  if (ids.length === 0) return [];
  const rng = new Rng(seed);
  return Array.from({ length: count }, () => [ids[rng.int(ids.length)]!, ids[rng.int(ids.length)]!]);
}

/**
 * Our branch-summary preview from `from` to `to` equals pi's
 * collectEntriesForBranchSummary + prepareBranchEntries(budget) +
 * computeFileLists on `piSession` (what pi's /tree passes). Both throw, or
 * neither. Returns whether pi had something to summarize, and the roles of the
 * message entries it summarized that pi converts for the model
 * (bashExecution, and summaries stored as messages).
 */
export async function sameBranchSummary(
  session: Session,
  piSession: unknown,
  pi: PiBranchSummary,
  from: string | null,
  to: string,
  budget: number,
  where: string,
  check: (actual: unknown, expected: unknown, where: string) => void = sameJson,
): Promise<{ entries: number; overBudget: boolean; convertedRoles: string[] }> {
  const ours = await settle(() => session.branchSummary(from, to, budget));
  // pi throws its own errors and plain TypeErrors (a message it cannot measure): either is "pi throws" here
  const theirs = await (async () => {
    try {
      const collected = await pi.collectEntriesForBranchSummary(piSession, from, to);
      const prepared = pi.prepareBranchEntries(collected.entries, budget);
      return { ok: true as const, value: { collected, prepared, files: pi.computeFileLists(prepared.fileOps) } };
    } catch (error) {
      return { ok: false as const, error: String(error) };
    }
  })();
  if (!ours.ok || !theirs.ok) {
    expect(ours.ok ? "returns" : "throws", `${where}: branch summary ${from} → ${to}`).toBe(theirs.ok ? "returns" : "throws");
    return { entries: 0, overBudget: false, convertedRoles: [] };
  }
  const a = ours.value;
  const b = theirs.value;
  const at = `${where}: branch summary ${from} → ${to} (budget ${budget})`;
  check(a.entryIds, ids(b.collected.entries), `${at}: entries`);
  check(a.commonAncestorId, b.collected.commonAncestorId, `${at}: common ancestor`);
  check(
    a.messages.map((m) => m.message),
    b.prepared.messages,
    `${at}: messages`,
  );
  check(a.tokens, b.prepared.totalTokens, `${at}: tokens`);
  check([a.readFiles, a.modifiedFiles], [b.files.readFiles, b.files.modifiedFiles], `${at}: file lists`);
  const unlimited = budget > 0 ? await settle(() => session.branchSummary(from, to, 0)) : null;
  if (unlimited?.ok) {
    // without a budget every entry that yields a message is summarized: with one, those are summarized or over it
    const all = unlimited.value.messages.map((m) => m.entryId);
    check([...a.messages.map((m) => m.entryId), ...a.overBudgetIds].sort(), [...all].sort(), `${at}: summarized and over-budget entries`);
  } else if (budget === 0) check(a.overBudgetIds, [], `${at}: nothing is over no budget`);
  // pi hands a message entry's own message object on
  const stored = new Set((b.collected.entries as { type?: unknown; message?: unknown }[]).filter((e) => e.type === "message").map((e) => e.message));
  const convertedRoles = (b.prepared.messages as { role?: unknown }[]).filter((m) => stored.has(m) && CONVERTED_ROLES.has(m.role)).map((m) => m.role as string);
  return { entries: a.entryIds.length, overBudget: !!unlimited && (!unlimited.ok || a.tokens < unlimited.value.tokens), convertedRoles };
}

/** pi's prepareCompaction and computeFileLists from one pi-coding-agent version's own modules. */
export interface PiCompaction {
  prepareCompaction(pathEntries: unknown[], settings: { enabled: boolean; reserveTokens: number; keepRecentTokens: number }): unknown;
  computeFileLists(fileOps: unknown): { readFiles: string[]; modifiedFiles: string[] };
}

export async function loadCompaction(pkg: string, kind: "coding-agent" | "harness"): Promise<PiCompaction> {
  const dir = kind === "coding-agent" ? "dist/core/compaction" : "dist/harness/compaction";
  const compaction = (await import(moduleUrl(`${pkg}/${dir}/compaction.js`))) as Pick<PiCompaction, "prepareCompaction">;
  const utils = (await import(moduleUrl(`${pkg}/${dir}/utils.js`))) as Pick<PiCompaction, "computeFileLists">;
  return { prepareCompaction: compaction.prepareCompaction, computeFileLists: utils.computeFileLists };
}

/** The harness's Result: its value, or its error thrown. */
export const unwrapResult = (result: unknown): unknown => {
  const r = result as { ok: boolean; value?: unknown; error?: unknown };
  if (r.ok) return r.value;
  throw r.error;
};

/** keepRecentTokens values the compaction comparisons cycle through: pi's default, and small ones that split turns. */
export const KEEP_RECENT = [20000, 2000, 300, 40, 1];

interface PiPreparation {
  firstKeptEntryId?: string;
  retainedTail?: unknown[];
  messagesToSummarize: unknown[];
  turnPrefixMessages: unknown[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: unknown;
  fileOps: unknown;
}

/**
 * Our compaction preview at `id` equals pi's prepareCompaction over the same
 * branch (`piPath`, pi's getBranch) with `keep`; both prepare nothing, or both
 * throw. `unwrap` reads the harness's result type ({ok, value} / {ok, error}).
 */
export function sameCompaction(
  session: Session,
  id: string,
  piPath: unknown[],
  pi: PiCompaction,
  keep: number,
  where: string,
  check: (actual: unknown, expected: unknown, where: string) => void = sameJson,
  unwrap: (result: unknown) => unknown = (r) => r,
): { prepared: boolean; split: boolean; previous: boolean } {
  const at = `${where}: compaction at ${id} keeping ${keep}`;
  let ours;
  let oursError: unknown = null;
  try {
    ours = session.compaction(id, keep);
  } catch (error) {
    oursError = error;
  }
  let theirs: PiPreparation | undefined;
  let theirsError: unknown = null;
  try {
    theirs = unwrap(pi.prepareCompaction(piPath, { enabled: true, reserveTokens: 16384, keepRecentTokens: keep })) as PiPreparation | undefined;
  } catch (error) {
    theirsError = error;
  }
  if (oursError || theirsError) {
    // pi throws what its code meets (a TypeError on a message it cannot measure, its wording its own variable names);
    // ours throws a query error there too
    expect(oursError ? "throws" : "returns", `${at}: ours ${String(oursError)}, pi ${String(theirsError)}`).toBe(theirsError ? "throws" : "returns");
    if (oursError) expect(oursError).toBeInstanceOf(SessionQueryError);
    return { prepared: false, split: false, previous: false };
  }
  if (!theirs) {
    check(ours, null, `${at}: pi prepares nothing`);
    return { prepared: false, split: false, previous: false };
  }
  expect(ours, `${at}: pi prepares a compaction`).not.toBeNull();
  const a = ours!;
  // the v4 log's preparation names no first kept entry (its compaction records the retained tail instead)
  if (theirs.firstKeptEntryId !== undefined) check(a.firstKeptEntryId, theirs.firstKeptEntryId, `${at}: firstKeptEntryId`);
  if (theirs.retainedTail !== undefined) check(a.retainedTail, theirs.retainedTail, `${at}: retainedTail`);
  check(a.messagesToSummarize, theirs.messagesToSummarize, `${at}: messagesToSummarize`);
  check(a.turnPrefixMessages, theirs.turnPrefixMessages, `${at}: turnPrefixMessages`);
  check(a.isSplitTurn, theirs.isSplitTurn, `${at}: isSplitTurn`);
  check(a.tokensBefore, theirs.tokensBefore, `${at}: tokensBefore`);
  check(a.previousSummary, theirs.previousSummary ?? null, `${at}: previousSummary`);
  const files = pi.computeFileLists(theirs.fileOps);
  check([a.readFiles, a.modifiedFiles], [files.readFiles, files.modifiedFiles], `${at}: file lists`);
  return { prepared: true, split: a.isSplitTurn, previous: a.previousSummary !== null };
}

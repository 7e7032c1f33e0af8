// What the differential tests share: pi's modules loaded by file path (the package roots do not load on
// Node 20), the shapes of the parts they call, and how our answers are compared with pi's.
import { existsSync, readFileSync, unlinkSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "vitest";
import { SessionQueryError, type ForkResult, type ModelView, type Session } from "../index";
import type { V4Entry } from "./random-session-versions";
import { stableStringify } from "./golden";
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

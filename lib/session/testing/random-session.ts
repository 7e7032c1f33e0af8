/**
 * Test support: random but realistic pi sessions, written through pi's own
 * writers (the coding agent's SessionManager and pi-agent-core 0.83's harness
 * Session). The generator only drives the writer it is given; it never decides
 * what the file looks like, so whatever pi writes is what the differential test
 * reads back. Deterministic for a given seed, except for the ids and UUIDs pi
 * draws itself.
 */

// ---------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------

import type { Rng } from "./rng";

/** The seed of session `index` of a run seeded with `seed` (so one session can be replayed alone). */
export function sessionSeed(seed: number, index: number): number {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

// ---------------------------------------------------------------------------
// The clock pi reads (`new Date().toISOString()` for every entry)
// ---------------------------------------------------------------------------

/**
 * Moves a fake clock the way a session's clock moves: often not at all (many
 * entries in one millisecond, which exercises pi's stable child sort), usually
 * forwards, and now and then backwards (a clock adjustment), which makes the
 * timestamp sort of siblings differ from file order.
 */
export class SessionClock {
  constructor(
    private readonly rng: Rng,
    public now: number,
    private readonly set: (ms: number) => void,
  ) {
    set(now);
  }

  tick(): number {
    const rng = this.rng;
    const step = rng.weighted<() => number>([
      [30, () => 0],
      [30, () => rng.range(1, 999)],
      [28, () => rng.range(1_000, 90_000)],
      [7, () => -rng.range(1, 20_000)],
      [5, () => rng.range(3_600_000, 3 * 86_400_000)],
    ])();
    this.now = Math.max(0, this.now + step);
    this.set(this.now);
    return this.now;
  }
}

// ---------------------------------------------------------------------------
// Message content
// ---------------------------------------------------------------------------

const WORDS = [
  "the",
  "build",
  "fails",
  "on",
  "main",
  "after",
  "refactor",
  "please",
  "check",
  "tests",
  "config",
  "why",
  "does",
  "vitest",
  "hang",
  "add",
  "a",
  "retry",
  "to",
  "fetch",
  "component",
  "render",
  "loop",
  "fix",
  "it",
  "ok",
  "done",
  "schema",
  "migration",
  "parser",
  "leaf",
  "branch",
  "tree",
  "summary",
  "token",
  "cache",
  "error",
  "path",
];
const ODD_TEXT = [
  "ünïcödé façade",
  "日本語のテキスト",
  "emoji 🎉🚀",
  'quote " and backslash \\',
  "line\nbreak",
  "tab\there",
  "<summary>not a summary</summary>",
  "  leading and trailing  ",
  "",
  "\u2028separator\u2029",
  "null",
  '{"json":true}',
  "a\r\nwindows line",
  "zero\u0000byte",
  "🧑‍💻 zwj",
  "lone \ud83d surrogate",
];
const PROVIDERS: readonly (readonly [string, string, readonly string[]])[] = [
  ["anthropic", "anthropic-messages", ["claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5"]],
  ["openai", "openai-responses", ["gpt-5", "gpt-5-mini", "o4-mini"]],
  ["google", "google-generative-ai", ["gemini-2.5-pro", "gemini-2.5-flash"]],
  ["openrouter", "openai-completions", ["qwen/qwen3-coder", "z-ai/glm-4.6"]],
];
const TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls"];
const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"];
const CUSTOM_TYPES = ["todo-state", "plan-mode", "git-checkpoint", "ext:notes", "subagent"];
const FILES = ["src/app.ts", "package.json", "README.md", "lib/x/y.ts", "tests/a b.test.ts"];
// a 1x1 PNG
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

export function randomText(rng: Rng, maxWords = 24): string {
  if (rng.chance(0.12)) return rng.pick(ODD_TEXT);
  const n = rng.range(1, maxWords);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(rng.chance(0.03) ? rng.pick(ODD_TEXT) : rng.pick(WORDS));
  return words.join(" ");
}

function textBlock(rng: Rng) {
  return { type: "text", text: randomText(rng) };
}

function imageBlock() {
  return { type: "image", data: PNG, mimeType: "image/png" };
}

export function usage(rng: Rng) {
  const input = rng.range(0, 50_000);
  const output = rng.range(0, 8_000);
  const cacheRead = rng.chance(0.5) ? rng.range(0, 100_000) : 0;
  const cacheWrite = rng.chance(0.3) ? rng.range(0, 20_000) : 0;
  const cost = { input: input * 3e-6, output: output * 1.5e-5, cacheRead: cacheRead * 3e-7, cacheWrite: cacheWrite * 3.75e-6, total: 0 };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
}

type Msg = Record<string, unknown>;

/** What the generator remembers between messages (open tool calls, the model in use). */
export interface ConversationState {
  provider: readonly [string, string, readonly string[]];
  model: string;
  openToolCalls: { id: string; name: string }[];
}

export function newConversation(rng: Rng): ConversationState {
  const provider = rng.pick(PROVIDERS);
  return { provider, model: rng.pick(provider[2]), openToolCalls: [] };
}

export function userMessage(rng: Rng, now: number): Msg {
  const content = rng.weighted<() => unknown>([
    [60, () => randomText(rng, 40)],
    [30, () => [textBlock(rng), ...(rng.chance(0.3) ? [textBlock(rng)] : [])]],
    [10, () => [textBlock(rng), imageBlock()]],
  ])();
  return { role: "user", content, timestamp: now };
}

export function assistantMessage(rng: Rng, now: number, state: ConversationState): Msg {
  if (rng.chance(0.08)) {
    state.provider = rng.pick(PROVIDERS);
    state.model = rng.pick(state.provider[2]);
  }
  const content: Msg[] = [];
  if (rng.chance(0.4)) {
    content.push(
      rng.chance(0.7)
        ? { type: "thinking", thinking: randomText(rng, 60), thinkingSignature: `sig_${rng.int(1e9).toString(36)}` }
        : { type: "thinking", thinking: randomText(rng, 30) },
    );
  }
  if (rng.chance(0.85)) content.push(textBlock(rng));
  const calls = rng.chance(0.45) ? rng.range(1, 3) : 0;
  state.openToolCalls = [];
  for (let i = 0; i < calls; i++) {
    const name = rng.pick(TOOLS);
    const id = `toolu_${rng.int(2 ** 31).toString(36)}${i}`;
    state.openToolCalls.push({ id, name });
    const args =
      name === "bash"
        ? { command: `npm test -- ${rng.pick(WORDS)}`, timeout: rng.chance(0.3) ? 120 : undefined }
        : { path: rng.pick(FILES), ...(name === "edit" ? { oldText: randomText(rng, 5), newText: randomText(rng, 5) } : {}) };
    content.push({ type: "toolCall", id, name, arguments: args });
  }
  const stopReason =
    calls > 0
      ? "toolUse"
      : rng.weighted([
          [80, "stop"],
          [8, "length"],
          [6, "error"],
          [6, "aborted"],
        ] as const);
  const message: Msg = {
    role: "assistant",
    content,
    api: state.provider[1],
    provider: state.provider[0],
    model: state.model,
    usage: usage(rng),
    stopReason,
    timestamp: now - rng.int(4000),
  };
  if (stopReason === "error") message.errorMessage = rng.pick(["429 rate limited", "overloaded_error", "fetch failed: ECONNRESET"]);
  if (rng.chance(0.3)) message.responseId = `resp_${rng.int(2 ** 31).toString(36)}`;
  if (rng.chance(0.03)) {
    // an assistant message without provider/model: pi's model becomes {} in JSON
    delete message.provider;
    delete message.model;
  }
  return message;
}

export function toolResultMessage(rng: Rng, now: number, state: ConversationState): Msg {
  const call = state.openToolCalls.shift() ?? { id: `toolu_orphan${rng.int(1000)}`, name: rng.pick(TOOLS) };
  const isError = rng.chance(0.15);
  const content = rng.chance(0.1) ? [textBlock(rng), imageBlock()] : [{ type: "text", text: isError ? `Error: ${randomText(rng, 8)}` : randomText(rng, 80) }];
  const message: Msg = { role: "toolResult", toolCallId: call.id, toolName: call.name, content, isError, timestamp: now };
  if (rng.chance(0.3))
    message.details =
      call.name === "bash"
        ? { exitCode: isError ? 1 : 0, truncated: rng.chance(0.2) }
        : { diff: `--- a\n+++ b\n@@ -1 +1 @@\n-${randomText(rng, 4)}\n+${randomText(rng, 4)}` };
  return message;
}

export function bashExecutionMessage(rng: Rng, now: number): Msg {
  const cancelled = rng.chance(0.1);
  const message: Msg = {
    role: "bashExecution",
    command: rng.pick(["ls -la", "git status", "npm test", "cat package.json", "echo 'hi'"]),
    output: randomText(rng, 50),
    cancelled,
    truncated: rng.chance(0.1),
    timestamp: now,
  };
  if (!cancelled) message.exitCode = rng.pick([0, 0, 0, 1, 2, 127]);
  if (message.truncated) message.fullOutputPath = `/tmp/pi-bash-${rng.int(1e6)}.log`;
  if (rng.chance(0.25)) message.excludeFromContext = true;
  return message;
}

/** Rare shapes pi accepts and must handle: a stored `custom` role, or null/missing content. */
export function oddMessage(rng: Rng, now: number): Msg {
  return rng.weighted<() => Msg>([
    [
      3,
      () => ({
        role: "custom",
        customType: rng.pick(CUSTOM_TYPES),
        content: randomText(rng),
        display: rng.chance(0.5),
        details: rng.chance(0.5) ? { n: rng.int(10) } : undefined,
        timestamp: now,
      }),
    ],
    [1, () => ({ role: rng.pick(["user", "assistant", "toolResult"]), content: null, timestamp: now })],
    [1, () => ({ role: "user", timestamp: now })],
  ])();
}

/**
 * A summary stored as a plain message entry, as pi's appendMessage keeps any
 * AgentMessage (an extension's, or a message list replayed into a session):
 * role `branchSummary` or `compactionSummary`, no `content`. Now and then
 * without its summary, which pi cannot measure.
 */
export function storedSummaryMessage(rng: Rng, now: number, entries: readonly WrittenEntry[]): Msg {
  const summary = rng.weighted<() => string | undefined>([
    [75, () => `Stored: ${randomText(rng, 20)}`],
    [20, () => ""],
    [5, () => undefined],
  ])();
  const message: Msg = rng.chance(0.5)
    ? { role: "branchSummary", fromId: entries.length ? rng.pick(entries).id : "root", timestamp: now }
    : { role: "compactionSummary", tokensBefore: rng.range(1_000, 150_000), timestamp: now };
  if (summary !== undefined) message.summary = summary;
  return message;
}

/** driveCodingAgent's `extra` for any SessionManager: summaries stored as message entries. */
export function storedSummaryOps(sm: Pick<CaSessionManager, "appendMessage">, rng: Rng): ExtraCaOps {
  return {
    ops: [[3, "storedSummary"]],
    run: (_op, now, entries) => void sm.appendMessage(storedSummaryMessage(rng, now, entries)),
  };
}

export function customMessageContent(rng: Rng): unknown {
  return rng.weighted<() => unknown>([
    [60, () => randomText(rng, 30)],
    [30, () => [textBlock(rng)]],
    [10, () => [textBlock(rng), imageBlock()]],
  ])();
}

function compactionDetails(rng: Rng): unknown {
  if (rng.chance(0.4)) return undefined;
  return { readFiles: FILES.filter(() => rng.chance(0.4)), modifiedFiles: FILES.filter(() => rng.chance(0.2)) };
}

function maybeUsage(rng: Rng): unknown {
  return rng.chance(0.4) ? usage(rng) : undefined;
}

function maybeBool(rng: Rng): boolean | undefined {
  return rng.weighted([
    [60, undefined],
    [20, true],
    [20, false],
  ] as const);
}

function labelValue(rng: Rng): string | undefined {
  return rng.weighted<string | undefined>([
    [25, "checkpoint"],
    [15, "before refactor"],
    [10, "  padded  "],
    [6, "   "],
    [8, "🐛 bug"],
    [10, `v${rng.int(20)}`],
    [14, randomText(rng, 3)],
    [6, ""],
    [6, undefined],
  ]);
}

function sessionName(rng: Rng): string {
  return rng.weighted<string>([
    [40, randomText(rng, 5)],
    [10, ""],
    [10, "   "],
    [10, "two\nlines\r\nhere"],
    [10, "  padded name  "],
    [20, "Refactor the parser"],
  ]);
}

// ---------------------------------------------------------------------------
// The writers: just the parts of pi's APIs the generator uses
// ---------------------------------------------------------------------------

export interface WrittenEntry {
  type: string;
  id: string;
  parentId: string | null;
  [key: string]: unknown;
}

/** pi-coding-agent 0.84.1 `SessionManager` (dist/core/session-manager.js). */
export interface CaSessionManager {
  appendMessage(message: unknown): string;
  appendThinkingLevelChange(thinkingLevel: string): string;
  appendModelChange(provider: string, modelId: string): string;
  appendCompaction(summary: string, firstKeptEntryId: string | undefined, tokensBefore: number, details?: unknown, fromHook?: boolean, usage?: unknown): string;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendSessionInfo(name: string): string;
  appendCustomMessageEntry(customType: string, content: unknown, display: boolean, details?: unknown): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
  branch(branchFromId: string): void;
  resetLeaf(): void;
  branchWithSummary(branchFromId: string | null, summary: string, details?: unknown, fromHook?: boolean, usage?: unknown): string;
  getLeafId(): string | null;
  getBranch(fromId?: string): WrittenEntry[];
  getEntries(): WrittenEntry[];
  getLabel(id: string): string | undefined;
  getSessionName(): string | undefined;
  getHeader(): Record<string, unknown> | null;
  getSessionFile(): string | undefined;
  getTree(): CaTreeNode[];
  createBranchedSession(leafId: string): string | undefined;
  buildSessionContext(): { messages: unknown[]; model: unknown; thinkingLevel: unknown };
}

export interface CaTreeNode {
  entry: WrittenEntry;
  children: CaTreeNode[];
}

/** pi-agent-core 0.83 harness `Session` (dist/harness/session/session.js). */
export interface HxSession {
  appendMessage(message: unknown): Promise<string>;
  appendThinkingLevelChange(thinkingLevel: string): Promise<string>;
  appendModelChange(provider: string, modelId: string): Promise<string>;
  appendActiveToolsChange(activeToolNames: string[]): Promise<string>;
  appendCompaction(
    summary: string,
    firstKeptEntryId: string | undefined,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
    usage?: unknown,
    retainedTail?: unknown[],
  ): Promise<string>;
  appendCustomEntry(customType: string, data?: unknown): Promise<string>;
  appendCustomMessageEntry(customType: string, content: unknown, display: boolean, details?: unknown): Promise<string>;
  appendLabel(targetId: string, label: string | undefined): Promise<string>;
  appendSessionName(name: string): Promise<string>;
  moveTo(entryId: string | null, summary?: { summary: string; details?: unknown; usage?: unknown; fromHook?: boolean }): Promise<string | undefined>;
  getLeafId(): Promise<string | null>;
  getEntries(): Promise<WrittenEntry[]>;
}

/** What one generated session did, for the test's report. */
export interface DriveStats {
  ops: Record<string, number>;
}

function count(stats: DriveStats, op: string) {
  stats.ops[op] = (stats.ops[op] ?? 0) + 1;
}

/** Entries between 5 and 80, most sessions mid-sized. */
export function sessionSize(rng: Rng): number {
  return rng.chance(0.15) ? rng.range(5, 12) : rng.range(5, 80);
}

// ---------------------------------------------------------------------------
// Coding agent
// ---------------------------------------------------------------------------

type CaOp =
  | "user"
  | "assistant"
  | "toolResult"
  | "bash"
  | "odd"
  | "customMessage"
  | "model"
  | "thinking"
  | "compaction"
  | "branch"
  | "branchWithSummary"
  | "resetLeaf"
  | "label"
  | "sessionInfo"
  | "custom";

const CA_OPS: readonly (readonly [number, CaOp])[] = [
  [16, "user"],
  [18, "assistant"],
  [8, "toolResult"],
  [3, "bash"],
  [1, "odd"],
  [4, "customMessage"],
  [3, "model"],
  [3, "thinking"],
  [6, "compaction"],
  [7, "branch"],
  [4, "branchWithSummary"],
  [2, "resetLeaf"],
  [7, "label"],
  [3, "sessionInfo"],
  [3, "custom"],
];

/** A firstKeptEntryId as pi's compactor (or an extension) might give it. */
function firstKept(rng: Rng, path: readonly WrittenEntry[], all: readonly WrittenEntry[]): string | undefined {
  return rng.weighted<() => string | undefined>([
    [55, () => (path.length ? rng.pick(path).id : undefined)],
    [10, () => (path.length ? path[path.length - 1]!.id : undefined)],
    [12, () => (all.length ? rng.pick(all).id : undefined)],
    [10, () => undefined],
    [5, () => "deadbeef"],
    [8, () => (path.length ? path[0]!.id : undefined)],
  ])();
}

/**
 * Operations beyond the base walk (a newer SessionManager's, see
 * random-session-versions.ts; stored summaries), mixed into the same random walk. `run` gets the clock's time
 * and the entries pi holds before the operation.
 */
export interface ExtraCaOps {
  ops: readonly (readonly [number, string])[];
  run(op: string, now: number, entries: readonly WrittenEntry[]): void;
}

/**
 * Drive a coding-agent SessionManager until it holds `size` entries. `tick`
 * moves the clock pi reads; it returns the new time in ms. `extra` adds
 * operations to the walk (without it the walk is as it always was, so other
 * tests' sessions stay the same).
 */
export function driveCodingAgent(sm: CaSessionManager, rng: Rng, tick: () => number, size: number, extra?: ExtraCaOps): DriveStats {
  const stats: DriveStats = { ops: {} };
  const convo = newConversation(rng);
  const labelled = new Set<string>();
  // most sessions start like a real one: a prompt and an answer (pi writes the file at the first assistant message)
  if (rng.chance(0.92)) {
    sm.appendMessage(userMessage(rng, tick()));
    sm.appendMessage(assistantMessage(rng, tick(), convo));
  }
  let guard = 0;
  while (sm.getEntries().length < size && guard++ < size * 10) {
    const now = tick();
    const entries = sm.getEntries();
    const op: string = extra ? rng.weighted<string>([...CA_OPS, ...extra.ops]) : rng.weighted(CA_OPS);
    count(stats, op);
    switch (op) {
      case "user":
        sm.appendMessage(userMessage(rng, now));
        break;
      case "assistant":
        sm.appendMessage(assistantMessage(rng, now, convo));
        if (convo.openToolCalls.length && rng.chance(0.8)) {
          while (convo.openToolCalls.length) sm.appendMessage(toolResultMessage(rng, tick(), convo));
        }
        break;
      case "toolResult":
        sm.appendMessage(toolResultMessage(rng, now, convo));
        break;
      case "bash":
        sm.appendMessage(bashExecutionMessage(rng, now));
        break;
      case "odd":
        sm.appendMessage(oddMessage(rng, now));
        break;
      case "customMessage":
        sm.appendCustomMessageEntry(
          rng.pick(CUSTOM_TYPES),
          customMessageContent(rng),
          rng.chance(0.7),
          rng.chance(0.4) ? { source: rng.pick(WORDS), n: rng.int(100) } : undefined,
        );
        break;
      case "model": {
        const provider = rng.pick(PROVIDERS);
        convo.provider = provider;
        convo.model = rng.pick(provider[2]);
        sm.appendModelChange(provider[0], convo.model);
        break;
      }
      case "thinking":
        sm.appendThinkingLevelChange(rng.pick(THINKING_LEVELS));
        break;
      case "compaction": {
        const path = sm.getBranch();
        sm.appendCompaction(
          `## Summary\n${randomText(rng, 60)}`,
          firstKept(rng, path, entries),
          rng.range(1_000, 200_000),
          compactionDetails(rng),
          maybeBool(rng),
          maybeUsage(rng),
        );
        break;
      }
      case "branch":
        if (entries.length) sm.branch(rng.pick(entries).id);
        break;
      case "branchWithSummary": {
        const target = !entries.length || rng.chance(0.15) ? null : rng.pick(entries).id;
        const summary = rng.chance(0.2) ? "" : `Abandoned: ${randomText(rng, 30)}`;
        sm.branchWithSummary(
          target,
          summary,
          rng.chance(0.3) ? { readFiles: [rng.pick(FILES)], modifiedFiles: [] } : undefined,
          maybeBool(rng),
          maybeUsage(rng),
        );
        break;
      }
      case "resetLeaf":
        sm.resetLeaf();
        break;
      case "label": {
        if (!entries.length) break;
        // relabel or clear a labelled target half of the time
        const target = labelled.size && rng.chance(0.5) ? rng.pick([...labelled]) : rng.pick(entries).id;
        const label = labelValue(rng);
        sm.appendLabelChange(target, label);
        if (label) labelled.add(target);
        else labelled.delete(target);
        break;
      }
      case "sessionInfo":
        sm.appendSessionInfo(sessionName(rng));
        break;
      case "custom":
        sm.appendCustomEntry(rng.pick(CUSTOM_TYPES), rng.chance(0.8) ? { state: randomText(rng, 4), count: rng.int(50), list: [1, "two", null] } : undefined);
        break;
      default:
        extra?.run(op, now, entries);
    }
  }
  return stats;
}

// ---------------------------------------------------------------------------
// Harness (pi-agent-core 0.83)
// ---------------------------------------------------------------------------

type HxOp = CaOp | "activeTools" | "moveTo" | "moveToNull";

const HX_OPS: readonly (readonly [number, HxOp])[] = [
  [16, "user"],
  [18, "assistant"],
  [8, "toolResult"],
  [3, "bash"],
  [1, "odd"],
  [4, "customMessage"],
  [3, "model"],
  [3, "thinking"],
  [3, "activeTools"],
  [6, "compaction"],
  [8, "moveTo"],
  [2, "moveToNull"],
  [7, "label"],
  [3, "sessionInfo"],
  [3, "custom"],
];

/** Drive a harness Session until its storage holds `size` entries (`leaf` entries included). */
export async function driveHarness(session: HxSession, rng: Rng, tick: () => number, size: number): Promise<DriveStats> {
  const stats: DriveStats = { ops: {} };
  const convo = newConversation(rng);
  const labelled = new Set<string>();
  /** the messages of the current branch since the last compaction, as the harness would retain them */
  const pathOf = async (): Promise<WrittenEntry[]> => {
    const entries = await session.getEntries();
    const byId = new Map(entries.map((e) => [e.id, e]));
    const out: WrittenEntry[] = [];
    let current = byId.get((await session.getLeafId()) ?? "");
    while (current) {
      out.push(current);
      current = current.parentId ? byId.get(current.parentId) : undefined;
    }
    return out.reverse();
  };
  if (rng.chance(0.9)) {
    await session.appendMessage(userMessage(rng, tick()));
    await session.appendMessage(assistantMessage(rng, tick(), convo));
  }
  let guard = 0;
  while ((await session.getEntries()).length < size && guard++ < size * 10) {
    const now = tick();
    const entries = await session.getEntries();
    const op = rng.weighted(HX_OPS);
    count(stats, op);
    switch (op) {
      case "user":
        await session.appendMessage(userMessage(rng, now));
        break;
      case "assistant":
        await session.appendMessage(assistantMessage(rng, now, convo));
        if (convo.openToolCalls.length && rng.chance(0.8)) {
          while (convo.openToolCalls.length) await session.appendMessage(toolResultMessage(rng, tick(), convo));
        }
        break;
      case "toolResult":
        await session.appendMessage(toolResultMessage(rng, now, convo));
        break;
      case "bash":
        await session.appendMessage(bashExecutionMessage(rng, now));
        break;
      case "odd":
        await session.appendMessage(oddMessage(rng, now));
        break;
      case "customMessage":
        await session.appendCustomMessageEntry(
          rng.pick(CUSTOM_TYPES),
          customMessageContent(rng),
          rng.chance(0.7),
          rng.chance(0.4) ? { n: rng.int(100) } : undefined,
        );
        break;
      case "model": {
        const provider = rng.pick(PROVIDERS);
        convo.provider = provider;
        convo.model = rng.pick(provider[2]);
        await session.appendModelChange(provider[0], convo.model);
        break;
      }
      case "thinking":
        await session.appendThinkingLevelChange(rng.pick(THINKING_LEVELS));
        break;
      case "activeTools":
        await session.appendActiveToolsChange(TOOLS.filter(() => rng.chance(0.6)));
        break;
      case "compaction": {
        const path = await pathOf();
        const kept = firstKept(rng, path, entries);
        let retainedTail: unknown[] | undefined;
        const tailKind = rng.weighted([
          [45, "none"],
          [40, "kept"],
          [10, "empty"],
          [5, "invented"],
        ] as const);
        if (tailKind === "kept") {
          // what the harness's own compactor stores: the messages from the first kept entry on, compactions excluded
          const start = path.findIndex((e) => e.id === kept);
          retainedTail = (start < 0 ? [] : path.slice(start)).filter((e) => e.type === "message").map((e) => e.message);
        } else if (tailKind === "empty") retainedTail = [];
        else if (tailKind === "invented") retainedTail = [userMessage(rng, now), assistantMessage(rng, now, convo)];
        await session.appendCompaction(
          `## Summary\n${randomText(rng, 60)}`,
          kept,
          rng.range(1_000, 200_000),
          compactionDetails(rng),
          maybeBool(rng),
          maybeUsage(rng),
          retainedTail,
        );
        break;
      }
      case "moveTo":
      case "moveToNull": {
        const target = op === "moveToNull" || !entries.length ? null : rng.pick(entries).id;
        const summary = rng.weighted<{ summary: string; details?: unknown; usage?: unknown; fromHook?: boolean } | undefined>([
          [55, undefined],
          [
            35,
            {
              summary: `Abandoned: ${randomText(rng, 30)}`,
              details: rng.chance(0.3) ? { readFiles: [rng.pick(FILES)] } : undefined,
              usage: maybeUsage(rng),
              fromHook: maybeBool(rng),
            },
          ],
          [10, { summary: "" }],
        ]);
        await session.moveTo(target, summary);
        break;
      }
      case "label": {
        if (!entries.length) break;
        const target = labelled.size && rng.chance(0.5) ? rng.pick([...labelled]) : rng.pick(entries).id;
        const label = labelValue(rng);
        await session.appendLabel(target, label);
        if (label?.trim()) labelled.add(target);
        else labelled.delete(target);
        break;
      }
      case "sessionInfo":
        await session.appendSessionName(sessionName(rng));
        break;
      case "custom":
        await session.appendCustomEntry(rng.pick(CUSTOM_TYPES), rng.chance(0.8) ? { state: randomText(rng, 4) } : undefined);
        break;
      case "branch":
      case "branchWithSummary":
      case "resetLeaf":
        break;
    }
  }
  // end some sessions on a move, so that the file's leaf is not its last line (or is null)
  const entries = await session.getEntries();
  if (entries.length && rng.chance(0.3)) {
    count(stats, "finalMove");
    await session.moveTo(rng.chance(0.2) ? null : rng.pick(entries).id);
  }
  return stats;
}

/** A minimal in-memory stand-in for the harness's FileSystem (only what JsonlSessionStorage calls). */
export class MemoryFileSystem {
  readonly files = new Map<string, string>();

  async writeFile(path: string, content: string) {
    this.files.set(path, content);
    return { ok: true as const, value: undefined };
  }

  async appendFile(path: string, content: string) {
    this.files.set(path, (this.files.get(path) ?? "") + content);
    return { ok: true as const, value: undefined };
  }

  async readTextFile(path: string) {
    const text = this.files.get(path);
    if (text === undefined) return { ok: false as const, error: { code: "not_found", message: `${path} not found` } };
    return { ok: true as const, value: text };
  }

  async readTextLines(path: string, options?: { maxLines?: number }) {
    const text = this.files.get(path);
    if (text === undefined) return { ok: false as const, error: { code: "not_found", message: `${path} not found` } };
    const lines = text.split("\n");
    return { ok: true as const, value: options?.maxLines === undefined ? lines : lines.slice(0, options.maxLines) };
  }

  async exists(path: string) {
    return { ok: true as const, value: this.files.has(path) };
  }

  // what the harness's JsonlSessionRepo asks of a file system besides reading and writing: paths are plain here
  async absolutePath(path: string) {
    return { ok: true as const, value: path };
  }

  async joinPath(parts: string[]) {
    return { ok: true as const, value: parts.join("/") };
  }

  async createDir() {
    return { ok: true as const, value: undefined };
  }
}

/**
 * Test support for pi's newer formats, beside random-session.ts: the operations
 * pi-coding-agent ≥ 0.86 adds to the SessionManager (usage entries, system
 * messages, context edits), and a driver for pi-agent-core 0.84.1's v4 session
 * (lanes, name and label facts, records, compactions with retainedTail,
 * deferred messages). As there, the generator only drives pi's own writers.
 */
import {
  assistantMessage,
  newConversation,
  randomText,
  storedSummaryMessage,
  toolResultMessage,
  usage,
  userMessage,
  type CaSessionManager,
  type DriveStats,
  type ExtraCaOps,
  type WrittenEntry,
} from "./random-session";
import type { Rng } from "./rng";

/** pi-coding-agent 0.86.1 / 0.87.1 / 1.6.0 `SessionManager`: 0.84.1's API plus what the generator uses. */
export interface CaSessionManager086 extends CaSessionManager {
  appendUsage(kind: string, provider: string, model: string, usage: unknown, note?: string): WrittenEntry;
  /** 0.87 and later */
  appendContextEdit?(targetId: string, replacement: { content: unknown } | null): string;
}

const TOOL_DEFS = [
  { name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } },
  { name: "bash", description: "Run a command", parameters: { type: "object", properties: { command: { type: "string" } } } },
  { name: "web_search", description: "Search the web", parameters: { type: "object", properties: { q: { type: "string" } } } },
];

/** A system message as pi ≥ 0.86 stores them: the prompt's sections and the tool loadout, as a delta. */
export function systemMessage(rng: Rng, now: number): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "system", timestamp: now };
  const content = rng.weighted<() => unknown>([
    [50, () => ""],
    [30, () => `You are pi. ${randomText(rng, 12)}`],
    [10, () => null],
    [10, () => undefined],
  ])();
  if (content !== undefined) message.content = content;
  if (rng.chance(0.6))
    message.sections = { identity: `You are pi, ${randomText(rng, 5)}`, ...(rng.chance(0.3) ? { project: rng.chance(0.3) ? null : randomText(rng, 8) } : {}) };
  if (rng.chance(0.5)) message.toolsAdded = TOOL_DEFS.filter(() => rng.chance(0.6));
  if (rng.chance(0.15)) message.toolsRemoved = [{ name: rng.pick(TOOL_DEFS).name }];
  return message;
}

function replacementContent(rng: Rng): { content: unknown } | null {
  return rng.weighted<() => { content: unknown } | null>([
    [20, () => null],
    [40, () => ({ content: `[edited] ${randomText(rng, 10)}` })],
    [25, () => ({ content: [{ type: "text", text: `[edited] ${randomText(rng, 8)}` }] })],
    [10, () => ({ content: [] })],
  ])();
}

function editable(entry: WrittenEntry): boolean {
  if (entry.type === "custom_message") return true;
  const role = (entry.message as { role?: unknown } | undefined)?.role;
  return entry.type === "message" && (role === "user" || role === "assistant" || role === "toolResult");
}

/**
 * The newer SessionManager's operations, for driveCodingAgent's `extra`.
 * `contextEdits`: the SessionManager has appendContextEdit (0.87 and later).
 */
export function caOpsSince086(sm: CaSessionManager086, rng: Rng, stats: { usage: number; system: number; contextEdit: number }): ExtraCaOps {
  const convo = newConversation(rng);
  const edited: string[] = [];
  return {
    ops: [
      [4, "usage"],
      [3, "system"],
      [sm.appendContextEdit ? 8 : 0, "contextEdit"],
      [sm.appendContextEdit ? 3 : 0, "editedTurn"],
      [3, "storedSummary"],
    ],
    run(op, now, entries) {
      switch (op) {
        case "usage":
          stats.usage++;
          sm.appendUsage(
            rng.pick(["cache_warm", "title", "subagent"]),
            convo.provider[0],
            convo.model,
            usage(rng),
            rng.chance(0.3) ? randomText(rng, 4) : undefined,
          );
          break;
        case "system":
          stats.system++;
          sm.appendMessage(systemMessage(rng, now));
          break;
        case "storedSummary":
          sm.appendMessage(storedSummaryMessage(rng, now, entries));
          break;
        case "editedTurn":
          // a turn followed at once by an edit of one of its messages, so edits often land in the context
          sm.appendMessage(userMessage(rng, now));
          sm.appendMessage(assistantMessage(rng, now, convo));
          if (convo.openToolCalls.length) sm.appendMessage(toolResultMessage(rng, now, convo));
        // falls through
        case "contextEdit": {
          const targets = sm.getBranch().filter(editable);
          if (!targets.length) break;
          // re-edit an edited target now and then (the later edit wins on its branch)
          const reEdit = edited.filter((id) => targets.some((t) => t.id === id));
          const targetId =
            reEdit.length && rng.chance(0.25)
              ? rng.pick(reEdit)
              : rng.chance(0.6)
                ? targets[targets.length - 1 - rng.int(Math.min(4, targets.length))]!.id
                : rng.pick(targets).id;
          sm.appendContextEdit!(targetId, replacementContent(rng));
          edited.push(targetId);
          stats.contextEdit++;
          break;
        }
      }
    },
  };
}

// ---------------------------------------------------------------------------
// pi-agent-core 0.84.1: the v4 Session over JsonlSessionStorage
// ---------------------------------------------------------------------------

export interface V4Entry {
  id: string;
  type: string;
  parentId: string | null;
  seq: number;
  timestamp: number;
  [key: string]: unknown;
}

/** The parts of pi-agent-core 0.84.1's `Session` (dist/harness/session/session.js) the generator uses. */
export interface V4Session {
  appendMessage(message: unknown): Promise<string>;
  appendEntry(entry: Record<string, unknown>, lane: string): Promise<V4Entry>;
  appendRecord(record: Record<string, unknown>): Promise<unknown>;
  createLane(lane: string, at: string | null): Promise<void>;
  moveLane(lane: string, to: string | null): Promise<void>;
  getLanes(): Promise<{ lane: string; leafId: string | null }[]>;
  setName(name: string): Promise<void>;
  setLabel(targetId: string, label: string | undefined): Promise<void>;
  findEntries(query?: Record<string, unknown>): Promise<V4Entry[]>;
  findEntriesOnBranch(query?: Record<string, unknown>): Promise<V4Entry[]>;
  findOpenOperations(lane: string): Promise<{ id: string }[]>;
  view(lane: string): { appendMessage(message: unknown): Promise<string>; findEntriesOnBranch(query?: Record<string, unknown>): Promise<V4Entry[]> };
}

type V4Op =
  | "user"
  | "assistant"
  | "deferred"
  | "toolResult"
  | "model"
  | "thinking"
  | "activeTools"
  | "compaction"
  | "branchSummary"
  | "custom"
  | "newLane"
  | "moveLane"
  | "laneToNull"
  | "name"
  | "label"
  | "usageRecord"
  | "operation"
  | "storedSummary";

const V4_OPS: readonly (readonly [number, V4Op])[] = [
  [16, "user"],
  [16, "assistant"],
  [4, "deferred"],
  [7, "toolResult"],
  [3, "model"],
  [3, "thinking"],
  [3, "activeTools"],
  [6, "compaction"],
  [3, "branchSummary"],
  [3, "custom"],
  [3, "newLane"],
  [7, "moveLane"],
  [1, "laneToNull"],
  [3, "name"],
  [6, "label"],
  [4, "usageRecord"],
  [3, "operation"],
  [3, "storedSummary"],
];

const LANES = ["side", "review", "bg-1", "bg-2"];

/**
 * Drive a v4 Session until it holds `size` entries. `id` makes the entry and
 * record ids (pi's own uuidv7 draws are not seeded); `tick` moves the clock.
 */
export async function driveV4(session: V4Session, rng: Rng, tick: () => number, size: number, id: () => string): Promise<DriveStats> {
  const stats: DriveStats = { ops: {} };
  const convo = newConversation(rng);
  const count = (op: string) => (stats.ops[op] = (stats.ops[op] ?? 0) + 1);
  let entries: V4Entry[] = [];
  let guard = 0;
  while (entries.length < size && guard++ < size * 10) {
    const now = tick();
    const lanes = await session.getLanes();
    const lane = rng.chance(0.65) ? "main" : rng.pick(lanes).lane;
    const op = rng.weighted(V4_OPS);
    count(op);
    // the v4 session refuses `undefined` members (durable payloads are plain JSON)
    const append = (fields: Record<string, unknown>) => session.appendEntry(JSON.parse(JSON.stringify({ id: id(), ...fields })), lane);
    switch (op) {
      case "user":
        await append({ type: "message", message: userMessage(rng, now) });
        break;
      case "assistant":
      case "deferred": {
        const message = assistantMessage(rng, now, convo);
        if (op === "deferred") message.stopReason = "deferred";
        await append({ type: "message", message });
        break;
      }
      case "toolResult":
        await append({ type: "message", message: toolResultMessage(rng, now, convo) });
        break;
      case "storedSummary":
        await append({ type: "message", message: storedSummaryMessage(rng, now, entries) });
        break;
      case "model":
        await append({ type: "model_change", provider: convo.provider[0], modelId: convo.model });
        break;
      case "thinking":
        await append({ type: "thinking_level_change", thinkingLevel: rng.pick(["off", "low", "medium", "high"]) });
        break;
      case "activeTools":
        await append({ type: "active_tools_change", activeToolNames: ["read", "bash", "edit", "write"].filter(() => rng.chance(0.5)) });
        break;
      case "compaction": {
        const branch = await session.view(lane).findEntriesOnBranch({ order: "oldestFirst" });
        const messages = branch.filter((e) => e.type === "message");
        const kept = messages.slice(messages.length - rng.int(Math.min(4, messages.length) + 1));
        await append({
          type: "compaction",
          summary: `## Summary\n${randomText(rng, 30)}`,
          firstKeptEntryId: kept[0]?.id ?? (branch.length ? branch[branch.length - 1]!.id : id()),
          tokensBefore: rng.range(1_000, 150_000),
          retainedTail: kept.map((e) => e.message),
          ...(rng.chance(0.4) ? { details: { readFiles: ["src/app.ts"], modifiedFiles: [] } } : {}),
        });
        break;
      }
      case "branchSummary":
        await append({
          type: "branch_summary",
          fromId: entries.length ? rng.pick(entries).id : "root",
          summary: rng.chance(0.2) ? "" : `Abandoned: ${randomText(rng, 12)}`,
        });
        break;
      case "custom":
        await append({
          type: "custom",
          customType: rng.pick(["todo-state", "plan-mode"]),
          ...(rng.chance(0.7) ? { data: { n: rng.int(10), text: randomText(rng, 3) } } : {}),
        });
        break;
      case "newLane": {
        const name = LANES.find((l) => !lanes.some((p) => p.lane === l));
        if (name) await session.createLane(name, entries.length && rng.chance(0.9) ? rng.pick(entries).id : null);
        break;
      }
      case "moveLane":
        if (entries.length) await session.moveLane(rng.pick(lanes).lane, rng.pick(entries).id);
        break;
      case "laneToNull":
        await session.moveLane(rng.pick(lanes).lane, null);
        break;
      case "name":
        await session.setName(
          rng.weighted([
            [50, randomText(rng, 4)],
            [15, ""],
            [15, "  padded  "],
            [20, "v4 session"],
          ] as const),
        );
        break;
      case "label":
        if (entries.length)
          await session.setLabel(
            rng.pick(entries).id,
            rng.weighted([
              [60, "checkpoint"],
              [15, "  padded  "],
              [10, ""],
              [15, undefined],
            ] as const),
          );
        break;
      case "usageRecord":
        await session.appendRecord({ type: "usage", id: id(), lane, usage: usage(rng) });
        break;
      case "operation": {
        const open = await session.findOpenOperations(lane);
        if (open.length) await session.appendRecord({ type: "operation_finished", id: id(), lane, runId: open[0]!.id });
        else await session.appendRecord({ type: "operation_started", id: id(), lane, intent: { kind: rng.pick(["run", "compaction", "navigation"]) } });
        break;
      }
    }
    entries = await session.findEntries({ order: "oldestFirst" });
  }
  return stats;
}

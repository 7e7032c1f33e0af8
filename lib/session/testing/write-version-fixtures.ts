/**
 * Writes the committed fixtures for pi's newer formats with pi's own code, into
 * e2e/fixtures/sessions/--home-dev-projects-newest--/ (the e2e sessions dir,
 * laid out like ~/.pi/agent/sessions):
 *
 *   - pi-coding-agent 0.86.1: usage entries, system messages, a compaction that
 *     stores a systemMessage and keeps an earlier compaction in its range;
 *   - pi-coding-agent 0.87.1: context_edit entries (one on a branch, one that
 *     drops a message), a compaction keeping from itself;
 *   - pi-coding-agent 1.6.0: a context_edit of an assistant message, usage;
 *   - pi-agent-core 0.84.1: a v4 log with two lanes, labels, records, a
 *     compaction with retainedTail and a deferred message.
 *
 * Run: npx tsx lib/session/testing/write-version-fixtures.ts
 * The clock is fixed, so timestamps are stable; ids are pi's own random ones.
 */
import { fixedClock } from "./fixed-clock";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const REPO = path.resolve(__dirname, "../../..");
export const NEWEST_PROJECT = "--home-dev-projects-newest--";
const OUT = path.join(REPO, "e2e", "fixtures", "sessions", NEWEST_PROJECT);
const CWD = "/home/dev/projects/newest";

const clock = fixedClock(Date.UTC(2026, 1, 10, 9, 0, 0, 1), 7_000);
clock.install();
const tick = clock.tick;

const load = (file: string) => import(pathToFileURL(path.join(REPO, "node_modules", file)).href);

const usage = (input: number, output: number, cacheRead = 0) => ({
  input,
  output,
  cacheRead,
  cacheWrite: 0,
  totalTokens: input + output + cacheRead,
  cost: { input: input * 3e-6, output: output * 1.5e-5, cacheRead: cacheRead * 3e-7, cacheWrite: 0, total: input * 3e-6 + output * 1.5e-5 + cacheRead * 3e-7 },
});
const user = (text: string) => ({ role: "user", content: [{ type: "text", text }], timestamp: tick() });
const assistant = (text: string, extra: Record<string, unknown>[] = [], stopReason = "stop") => ({
  role: "assistant",
  content: [{ type: "text", text }, ...extra],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: usage(1800, 420, 12_000),
  stopReason,
  timestamp: tick(),
});
const toolResult = (toolCallId: string, text: string) => ({
  role: "toolResult",
  toolCallId,
  toolName: "read",
  content: [{ type: "text", text }],
  isError: false,
  timestamp: tick(),
});
const system = (content: string, sections?: Record<string, string>) => ({
  role: "system",
  content,
  ...(sections ? { sections } : {}),
  toolsAdded: [
    { name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } },
    { name: "bash", description: "Run a command", parameters: { type: "object", properties: { command: { type: "string" } } } },
  ],
  timestamp: tick(),
});
const PARSER_SOURCE =
  `export function parse(text: string) {\n  // reads the whole file into memory\n  return text.split("\\n").map((line) => JSON.parse(line));\n}\n`.repeat(12);

interface Sm {
  appendMessage(m: unknown): string;
  appendUsage(kind: string, provider: string, model: string, u: unknown, note?: string): { id: string };
  appendCompaction(summary: string, firstKept: string | undefined, tokensBefore: number, details?: unknown): string;
  appendContextEdit(targetId: string, replacement: { content: unknown } | null): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
  appendSessionInfo(name: string): string;
  appendModelChange(provider: string, modelId: string): string;
  appendThinkingLevelChange(level: string): string;
  branch(id: string): void;
  getSessionFile(): string;
}
interface SmModule {
  SessionManager: { create(cwd: string, dir: string): Sm };
}

async function codingAgent086(): Promise<string> {
  const { SessionManager } = (await load("pi-coding-agent-0861/dist/core/session-manager.js")) as SmModule;
  const sm = SessionManager.create(CWD, OUT);
  sm.appendMessage(system("You are pi, a coding agent.", { identity: "You are pi, a coding agent.", project: "The project is a session viewer." }));
  sm.appendThinkingLevelChange("medium");
  const first = sm.appendMessage(user("Why does the build fail on main?"));
  sm.appendMessage(assistant("The build fails because `tsc` cannot find the generated types. Run `next typegen` first."));
  sm.appendUsage("cache_warm", "anthropic", "claude-sonnet-4-5", usage(0, 1, 48_000), "prompt cache warmed");
  sm.appendMessage(user("Fixed. Now the tests hang."));
  const hang = sm.appendMessage(assistant("A test leaves a watcher open; close it in afterAll."));
  const firstCompaction = sm.appendCompaction("## Goal\nFix the build and the hanging tests.\n\n## Done\n- typegen before tsc", hang, 41_000);
  sm.appendMessage(user("Also add a retry to fetch."));
  sm.appendMessage(assistant("Added a retry with exponential backoff (3 attempts)."));
  sm.appendUsage("title", "anthropic", "claude-haiku-4-5", usage(900, 12), "session title");
  // keeps from before the first compaction: pi 0.86 sends both summaries, pi ≥ 0.87 only this one
  sm.appendCompaction("## Goal\nBuild, tests and fetch retry.\n\n## Done\n- typegen, watcher closed, retry added", firstCompaction, 52_000);
  sm.appendMessage(user("Summarise what changed."));
  sm.appendMessage(assistant("Three fixes: typegen before tsc, the watcher closed after the tests, and a fetch retry."));
  sm.appendLabelChange(first, "start");
  sm.appendSessionInfo("Usage entries and system messages (0.86)");
  return sm.getSessionFile();
}

async function codingAgent087(): Promise<string> {
  const { SessionManager } = (await load("pi-coding-agent-0871/dist/core/session-manager.js")) as SmModule;
  const sm = SessionManager.create(CWD, OUT);
  sm.appendMessage(system("You are pi, a coding agent."));
  sm.appendModelChange("anthropic", "claude-sonnet-4-5");
  const ask = sm.appendMessage(user("Refactor the parser to stream lines instead of reading the whole file."));
  const call = sm.appendMessage(
    assistant("Let me read the parser first.", [{ type: "toolCall", id: "toolu_read1", name: "read", arguments: { path: "src/parse.ts" } }], "toolUse"),
  );
  const read = sm.appendMessage(toolResult("toolu_read1", PARSER_SOURCE));
  sm.appendMessage(assistant("The parser splits the whole text. I will switch it to a line reader that keeps the partial last line."));
  // the long file read is replaced in the model's context on this branch only
  sm.appendContextEdit(read, { content: "[src/parse.ts, 48 lines: splits the whole text, then JSON.parse per line — trimmed from context]" });
  sm.appendUsage("cache_warm", "anthropic", "claude-sonnet-4-5", usage(0, 1, 30_000));
  const aside = sm.appendMessage(user("By the way, ignore the lint warnings for now."));
  sm.appendMessage(assistant("Noted: lint warnings are out of scope."));
  sm.appendContextEdit(aside, null);
  sm.appendMessage(user("Now add tests for a cut-off last line."));
  sm.appendMessage(assistant("Added tests: a line without newline is kept back until the next chunk or the end."));
  sm.appendCompaction("## Goal\nStream the parser.\n\n## Done\n- line reader, tests for a cut-off last line", undefined, 38_000);
  sm.appendMessage(user("Good. What is left?"));
  sm.appendMessage(assistant("Only the benchmark. The parser now streams."));
  // another branch from the first answer: the edit above is not on it, so the file read is sent in full
  sm.branch(call);
  sm.appendMessage(toolResult("toolu_read1", PARSER_SOURCE));
  sm.appendMessage(assistant("Alternative plan: keep the parser and read in chunks of 1 MiB."));
  sm.appendLabelChange(ask, "task");
  sm.appendSessionInfo("Context edits and a compaction (0.87)");
  return sm.getSessionFile();
}

async function codingAgent160(): Promise<string> {
  const { SessionManager } = (await load("pi-coding-agent-160/dist/core/session-manager.js")) as SmModule;
  const sm = SessionManager.create(CWD, OUT);
  sm.appendMessage(system("You are pi, a coding agent.", { identity: "You are pi." }));
  sm.appendMessage(user("Which Node version does the project need?"));
  const answer = sm.appendMessage(assistant("Node 18 or later."));
  sm.appendMessage(user("package.json says >=20.19.0."));
  sm.appendContextEdit(answer, { content: "Node 20.19 or later (engines in package.json)." });
  sm.appendMessage(assistant("Right: Node 20.19 or later, as engines says."));
  sm.appendUsage("subagent", "openai", "gpt-5-mini", usage(3200, 640), "checked package.json");
  sm.appendSessionInfo("A corrected answer (1.6)");
  return sm.getSessionFile();
}

interface V4Session {
  appendMessage(m: unknown): Promise<string>;
  appendEntry(e: Record<string, unknown>, lane: string): Promise<{ id: string }>;
  appendRecord(r: Record<string, unknown>): Promise<unknown>;
  createLane(lane: string, at: string | null): Promise<void>;
  moveLane(lane: string, to: string | null): Promise<void>;
  setLabel(id: string, label: string | undefined): Promise<void>;
  view(lane: string): { appendMessage(m: unknown): Promise<string> };
  getMetadata(): Promise<{ path: string }>;
}

async function v4Log(): Promise<string> {
  const { JsonlSessionRepo } = await load("pi-agent-core-v4/dist/harness/session/jsonl.js");
  const { NodeExecutionEnv } = await load("pi-agent-core-v4/dist/harness/env/nodejs.js");
  const repo = new JsonlSessionRepo({ fs: new NodeExecutionEnv({ cwd: REPO }), sessionsRoot: path.dirname(OUT) });
  const session = (await repo.create({ cwd: CWD })) as V4Session;
  const entry = (fields: Record<string, unknown>, lane = "main") => session.appendEntry({ id: `e-${tick(1)}`, ...fields }, lane);
  await entry({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
  await session.appendRecord({ type: "operation_started", id: `op-${tick(1)}`, lane: "main", intent: { kind: "run" } });
  const ask = await session.appendMessage(user("Plan the migration to the v4 log."));
  const plan = await session.appendMessage(assistant("Step 1: write entries through lanes. Step 2: facts for names and labels."));
  await session.appendRecord({ type: "usage", id: `u-${tick(1)}`, lane: "main", usage: usage(2100, 380, 9000) });
  await session.createLane("review", ask);
  await session.view("review").appendMessage(assistant("Review: the plan misses the torn-tail repair.", [], "stop"));
  await session.appendMessage(user("Continue with step 2."));
  await session.appendMessage(assistant("Waiting for the review lane before answering.", [], "deferred"));
  const kept = await session.appendMessage(user("The review is in: add the torn-tail repair."));
  const keptAnswer = await session.appendMessage(assistant("Added: a cut-off last line is dropped by rewriting the file."));
  await entry({
    type: "compaction",
    summary: "## Goal\nMigrate to the v4 log.\n\n## Done\n- lanes, facts, torn-tail repair",
    firstKeptEntryId: kept,
    tokensBefore: 23_000,
    retainedTail: [user("The review is in: add the torn-tail repair."), assistant("Added: a cut-off last line is dropped by rewriting the file.")],
  });
  await session.appendMessage(user("What is next?"));
  await session.appendMessage(assistant("Forks: one branch or the whole tree."));
  await session.setLabel(plan, "plan");
  await session.setLabel(keptAnswer, "repair");
  return (await session.getMetadata()).path;
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  for (const name of readdirSync(OUT)) rmSync(path.join(OUT, name));
  const files = [await codingAgent086(), await codingAgent087(), await codingAgent160(), await v4Log()];
  for (const file of files) console.log(path.relative(REPO, file));
}

void main();

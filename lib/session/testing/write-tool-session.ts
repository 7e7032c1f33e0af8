/**
 * Writes a session whose tool calls were run by pi's own tools (pi-coding-agent 1.6.0: write, read, edit, bash,
 * grep, find, ls, in a scratch workspace) and stored by pi's SessionManager, into
 * e2e/fixtures/sessions/--home-dev-projects-tools--/: real edit diffs, a failed edit, a bash run that exits 1
 * with coloured output and an OSC 8 link, a long output, a partial read, a search. The e2e tests of the tool
 * renderers read it.
 *
 * Run: npx tsx lib/session/testing/write-tool-session.ts
 * The clock is fixed; ids are pi's own random ones. grep and find need ripgrep and fd, which pi downloads:
 * where they are missing the results say so, as pi's would.
 */
import { fixedClock } from "./fixed-clock";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const REPO = path.resolve(__dirname, "../../..");
export const TOOLS_PROJECT = "--home-dev-projects-tools--";
const OUT = path.join(REPO, "e2e", "fixtures", "sessions", TOOLS_PROJECT);
const CWD = "/home/dev/projects/tools";

const clock = fixedClock(Date.UTC(2026, 1, 12, 10, 0, 0, 1), 5_000);
const tick = clock.tick;
const load = (file: string) => import(pathToFileURL(path.join(REPO, "node_modules", file)).href);

interface Tool {
  execute(id: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<{ content: unknown[]; details?: unknown; isError?: boolean }>;
}
interface SessionManagerLike {
  appendMessage(message: unknown): string;
  appendSessionInfo(name: string): void;
  getSessionFile(): string;
}

const usage = {
  input: 2400,
  output: 310,
  cacheRead: 9000,
  cacheWrite: 0,
  totalTokens: 11_710,
  cost: { input: 0.0072, output: 0.00465, cacheRead: 0.0027, cacheWrite: 0, total: 0.01455 },
};

const POOL_SOURCE = `import { Pool } from "pg";

export interface PoolOptions {
  max: number;
  idleMs: number;
}

export function createPool(url: string, options: PoolOptions): Pool {
  if (!url) throw new Error("a database url is required");
  return new Pool({ connectionString: url, max: options.max, idleTimeoutMillis: options.idleMs });
}

export async function withClient<T>(pool: Pool, run: (client: unknown) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await run(client);
  } finally {
    client.release();
  }
}
`;

async function main() {
  const workspace = mkdtempSync(path.join(os.tmpdir(), "pi-tools-"));
  mkdirSync(path.join(workspace, "src"));
  clock.install();
  const tools = (await load("pi-coding-agent-160/dist/core/tools/index.js")) as Record<string, (cwd: string) => Tool>;
  const { SessionManager } = (await load("pi-coding-agent-160/dist/core/session-manager.js")) as {
    SessionManager: { create(cwd: string, dir: string): SessionManagerLike };
  };
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const sm = SessionManager.create(CWD, OUT);
  let calls = 0;

  /** one assistant turn making these calls, each run by pi's tool and its result stored as pi's agent loop stores it */
  async function turn(text: string, wanted: [name: string, params: Record<string, unknown>][]) {
    const blocks = wanted.map(([name, params]) => ({ type: "toolCall", id: `toolu_${String(++calls).padStart(2, "0")}${name}`, name, arguments: params }));
    sm.appendMessage({
      role: "assistant",
      content: [{ type: "text", text }, ...blocks],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage,
      stopReason: "toolUse",
      timestamp: tick(),
    });
    for (const block of blocks) {
      let content: unknown[];
      let details: unknown;
      let isError = false;
      try {
        ({
          content,
          details,
          isError = false,
        } = await tools[`create${block.name[0]!.toUpperCase()}${block.name.slice(1)}Tool`]!(workspace).execute(block.id, block.arguments));
      } catch (error) {
        // pi's agent loop turns a tool's throw into an error result with the message as its text (bash returns
        // a non-zero exit as an error result itself)
        content = [{ type: "text", text: error instanceof Error ? error.message : String(error) }];
        isError = true;
      }
      sm.appendMessage({ role: "toolResult", toolCallId: block.id, toolName: block.name, content, details, isError, timestamp: tick(800) });
    }
  }

  sm.appendMessage({
    role: "user",
    content: [{ type: "text", text: "Add a pool helper in src/pool.ts, cap it at 10 connections, then run the tests." }],
    timestamp: tick(),
  });
  await turn("I'll write the helper first.", [["write", { path: "src/pool.ts", content: POOL_SOURCE }]]);
  await turn("Now the cap, and a check on the url.", [
    [
      "edit",
      {
        path: "src/pool.ts",
        edits: [
          { oldText: "  max: number;\n", newText: "  /** at most 10: the database allows 20 per role */\n  max: number;\n" },
          { oldText: "max: options.max,", newText: "max: Math.min(options.max, 10)," },
        ],
      },
    ],
  ]);
  await turn("Also the old name.", [["edit", { path: "src/pool.ts", edits: [{ oldText: "createConnectionPool(", newText: "createPool(" }] }]]);
  await turn("Let me read the middle of the file again.", [["read", { path: "src/pool.ts", offset: 8, limit: 6 }]]);
  await turn("Running the tests.", [
    [
      "bash",
      {
        command:
          "printf '\\033[1mpool.test.ts\\033[0m\\n  \\033[32m✓\\033[0m caps max at 10\\n  \\033[31m✗\\033[0m rejects an empty url\\n\\033[33mwarning\\033[0m: see \\033]8;;https://node-postgres.com/apis/pool\\007the pool docs\\033]8;;\\007\\n'; exit 1",
      },
    ],
  ]);
  await turn("A long listing, to see the fold.", [["bash", { command: "seq 1 60 | sed 's/^/line /'" }]]);
  await turn("Where is createPool used?", [
    ["ls", { path: "src" }],
    ["grep", { pattern: "createPool", path: "src" }],
  ]);
  sm.appendMessage({
    role: "assistant",
    content: [
      {
        type: "text",
        text: 'The cap is in; one test fails because an empty url throws. Here is the fix:\n\n```ts\nif (!url) throw new Error("a database url is required");\n```',
      },
    ],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage,
    stopReason: "stop",
    timestamp: tick(),
  });
  sm.appendSessionInfo("Tool calls run by pi's own tools (1.6)");
  clock.restore();
  rmSync(workspace, { recursive: true, force: true });
  console.log(path.relative(REPO, sm.getSessionFile()), readdirSync(OUT).length);
}

void main();

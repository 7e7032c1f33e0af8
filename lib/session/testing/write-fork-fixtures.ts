/**
 * Writes a committed fork family with pi's own code (pi-coding-agent 1.6.0's SessionManager), into the e2e
 * sessions dir and the bundled samples:
 *
 *   - a source session with a branch, labels and usage on every answer;
 *   - a fork of it at an earlier answer (`createBranchedSession`, what `/fork` and `/clone` write), continued;
 *   - a fork of that fork, continued: a family three files deep;
 *   - the source continued into another project (`forkFrom`, what `pi --fork` writes).
 *
 * pi writes into a scratch directory named like a user's `~/.pi/agent/sessions`; the scratch prefix is then
 * cut from the headers' `parentSession`, so they name the paths pi would have written on that machine (which
 * this library does not have: the viewer finds the sources by the session id in the file name, as it must for
 * any library that was moved or copied).
 *
 * Run: npx tsx lib/session/testing/write-fork-fixtures.ts
 * The clock is fixed, so timestamps are stable; ids are pi's own random ones.
 */
import { fixedClock } from "./fixed-clock";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const REPO = path.resolve(__dirname, "../../..");
export const FORKS_PROJECT = "--home-dev-projects-forks--";
export const FORKS_ELSEWHERE = "--home-dev-projects-forks-next--";
const USER_SESSIONS = "/home/dev/.pi/agent/sessions";
const CWD = "/home/dev/projects/forks";
const TARGETS = [path.join(REPO, "e2e", "fixtures", "sessions"), path.join(REPO, "public", "samples")];

const clock = fixedClock(Date.UTC(2026, 1, 14, 15, 0, 0, 1), 9_000);
clock.install();
const tick = clock.tick;

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => {
  const cost = { input: input * 3e-6, output: output * 1.5e-5, cacheRead: cacheRead * 3e-7, cacheWrite: cacheWrite * 3.75e-6 };
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { ...cost, total: cost.input + cost.output + cost.cacheRead + cost.cacheWrite },
  };
};
const user = (text: string) => ({ role: "user", content: [{ type: "text", text }], timestamp: tick() });
let answers = 0;
const assistant = (text: string, model = "claude-sonnet-4-5") => {
  answers++;
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: "anthropic",
    model,
    usage: usage(1_200 + 150 * answers, 180 + 40 * answers, 9_000 + 700 * answers, answers % 3 === 0 ? 2_000 : 0),
    stopReason: "stop",
    timestamp: tick(),
  };
};

interface Sm {
  appendMessage(m: unknown): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
  appendSessionInfo(name: string): string;
  branch(id: string): void;
  createBranchedSession(leafId: string): string | undefined;
  getSessionFile(): string | undefined;
}
interface SmModule {
  SessionManager: {
    create(cwd: string, dir: string): Sm;
    open(file: string, dir?: string): Sm;
    forkFrom(source: string, cwd: string, dir?: string): Sm;
  };
}

async function main() {
  const { SessionManager } = (await import(
    pathToFileURL(path.join(REPO, "node_modules", "pi-coding-agent-160/dist/core/session-manager.js")).href
  )) as SmModule;
  const scratch = mkdtempSync(path.join(os.tmpdir(), "pi-forks-"));
  const sessions = path.join(scratch, USER_SESSIONS);
  const dir = path.join(sessions, FORKS_PROJECT);
  mkdirSync(dir, { recursive: true });

  const source = SessionManager.create(CWD, dir);
  source.appendSessionInfo("Rate limiter for the API gateway");
  const ask = source.appendMessage(user("Add a rate limiter to the API gateway: 100 requests a minute per key."));
  source.appendMessage(assistant("I'll use a token bucket per API key, kept in Redis so every gateway instance shares it."));
  const redis = source.appendMessage(user("Use Redis, we already run it."));
  const plan = source.appendMessage(assistant("Plan: a Lua script that refills and takes a token atomically, called from the middleware."));
  source.appendMessage(user("Write the Lua script."));
  const script = source.appendMessage(
    assistant("Here is `ratelimit.lua`: it reads the bucket, refills by elapsed time, takes one token, returns the remainder."),
  );
  source.appendLabelChange(plan, "plan");
  source.appendLabelChange(ask, "task");
  source.branch(redis);
  source.appendMessage(assistant("Alternatively, a sliding window log in a sorted set: exact, but more memory per key.", "claude-opus-4-5"));
  source.branch(script);
  source.appendMessage(user("Add tests for the refill."));
  source.appendMessage(assistant("Added tests: a drained bucket refills one token per 600 ms; a burst of 100 passes, the 101st is refused."));
  const sourceFile = source.getSessionFile()!;

  tick(3_600_000);
  const fork = SessionManager.open(sourceFile, dir);
  const forkFile = fork.createBranchedSession(plan)!;
  fork.appendSessionInfo("Rate limiter, in-memory variant");
  fork.appendMessage(user("Try it without Redis: an in-memory limiter per instance."));
  const memory = fork.appendMessage(assistant("An in-memory bucket per instance: no network hop, but each instance allows its own 100 a minute."));
  fork.appendMessage(user("Fine for staging. Add an LRU so idle keys are dropped."));
  fork.appendMessage(assistant("Buckets now live in an LRU of 10,000 keys; an idle key's bucket is dropped and starts full."));

  tick(3_600_000);
  const forkOfFork = SessionManager.open(forkFile, dir);
  forkOfFork.createBranchedSession(memory);
  forkOfFork.appendSessionInfo("Rate limiter, in-memory with metrics");
  forkOfFork.appendMessage(user("Export the refused count as a Prometheus counter."));
  forkOfFork.appendMessage(assistant("Added `ratelimit_refused_total{key_prefix}`; the key is cut to its first 4 characters to keep cardinality low."));

  tick(3_600_000);
  const moved = SessionManager.forkFrom(sourceFile, "/home/dev/projects/forks-next", path.join(sessions, FORKS_ELSEWHERE));
  moved.appendMessage(user("Port the limiter to the new gateway repository."));
  moved.appendMessage(assistant("Ported: the Lua script and middleware are in `gateway-next/ratelimit/`, tests pass."));

  for (const project of [FORKS_PROJECT, FORKS_ELSEWHERE]) {
    for (const target of TARGETS) {
      const out = path.join(target, project);
      rmSync(out, { recursive: true, force: true });
      mkdirSync(out, { recursive: true });
      for (const name of readdirSync(path.join(sessions, project))) {
        const text = readFileSync(path.join(sessions, project, name), "utf8");
        writeFileSync(path.join(out, name), text.replaceAll(JSON.stringify(scratch).slice(1, -1), ""));
      }
    }
  }
  rmSync(scratch, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

/**
 * The compaction preview reads only the end of the branch (caBranchSinceCompaction).
 * These sessions put a compaction's firstKeptEntryId everywhere a file can put it —
 * before the compaction, on it, after it, nowhere, and behind a second compaction —
 * and the preview must still equal pi 0.84.1's prepareCompaction over its whole
 * getBranch at every entry.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Session } from "../../session";
import { KEEP_RECENT, loadCompaction, moduleUrl, sameCompaction, type PiCompaction } from "../../testing/oracle";
import { LINEAR_HEADER } from "../../testing/linear-session";
import type { JsonObject } from "../../types";
import { caBranch, caBranchSinceCompaction } from "./branch";

interface Sm {
  getEntries(): { id: string }[];
  getBranch(id?: string): unknown[];
}

let SessionManager: { open(file: string, dir: string): Sm };
let pi: PiCompaction;
let tmp: string;

beforeAll(async () => {
  ({ SessionManager } = (await import(moduleUrl("@earendil-works/pi-coding-agent/dist/core/session-manager.js"))) as {
    SessionManager: typeof SessionManager;
  });
  pi = await loadCompaction("@earendil-works/pi-coding-agent", "coding-agent");
  tmp = mkdtempSync(path.join(os.tmpdir(), "pi-compaction-window-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const text = (n: number) => `${"word ".repeat(40 + 17 * n)}${n}`;

/** 12 turns (user, assistant with a read and an edit, tool result), with compactions after turns 4 and 8 keeping `keptA` and `keptB`. */
function session(keptA: string, keptB: string): JsonObject[] {
  const entries: JsonObject[] = [];
  let parent: string | null = null;
  let second = 0;
  const add = (entry: JsonObject) => {
    const id = `e${entries.length + 1}`;
    entries.push({ ...entry, id, parentId: parent, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, second++)).toISOString() });
    parent = id;
  };
  for (let turn = 1; turn <= 12; turn++) {
    add({ type: "message", message: { role: "user", content: text(turn), timestamp: turn } });
    add({
      type: "message",
      message: {
        role: "assistant",
        content: [
          { type: "text", text: text(turn + 1) },
          { type: "toolCall", id: `c${turn}`, name: turn % 2 ? "read" : "edit", arguments: { path: `src/f${turn}.ts` } },
        ],
        usage: { input: 100 * turn, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 100 * turn + 20 },
        stopReason: "toolUse",
        timestamp: turn,
      },
    });
    add({
      type: "message",
      message: { role: "toolResult", toolCallId: `c${turn}`, toolName: "read", content: [{ type: "text", text: text(turn) }], timestamp: turn },
    });
    if (turn === 4) add({ type: "compaction", summary: "first", firstKeptEntryId: keptA, tokensBefore: 900, details: { readFiles: ["a"], modifiedFiles: [] } });
    if (turn === 8) add({ type: "compaction", summary: "second", firstKeptEntryId: keptB, tokensBefore: 1900 });
  }
  return entries;
}

// e1…e12 are turns 1–4, e13 the first compaction; e26 the second (after turn 8), e14 onwards turns 5–12
const CASES: [string, string, string][] = [
  ["kept before the compaction", "e10", "e23"],
  ["kept is the compaction itself", "e13", "e26"],
  ["kept after the compaction", "e13", "e30"],
  ["kept not on the path", "e13", "nowhere"],
  ["the newest keeps an entry before the older compaction", "e4", "e7"],
];

describe("the compaction preview reads the branch only back to the newest compaction's kept entry, as pi 0.84.1 prepares it", () => {
  for (const [name, keptA, keptB] of CASES) {
    it(name, () => {
      const entries = session(keptA, keptB);
      const file = path.join(tmp, `${name.replace(/\W+/g, "-")}.jsonl`);
      writeFileSync(file, [LINEAR_HEADER, ...entries].map((e) => `${JSON.stringify(e)}\n`).join(""));
      const ours = Session.fromText([LINEAR_HEADER, ...entries].map((e) => `${JSON.stringify(e)}\n`).join(""), { reader: "ca" });
      const sm = SessionManager.open(file, tmp);
      let prepared = 0;
      for (const { id } of sm.getEntries()) {
        const whole = caBranch(ours.tree, id);
        const window = caBranchSinceCompaction(ours.tree, id);
        expect(whole.slice(whole.length - window.length), `${id}: a suffix of the branch`).toEqual(window);
        for (const keep of KEEP_RECENT) prepared += Number(sameCompaction(ours, id, sm.getBranch(id), pi, keep, `${name}: ${id}`).prepared);
      }
      expect(prepared, "some entries prepare a compaction").toBeGreaterThan(0);
    });
  }
});

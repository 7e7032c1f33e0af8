import { readLight } from "./light-session";
import { snapshotJson } from "./object-snapshot";
import { sessionSnapshot, SNAPSHOT_CLASSES } from "./session-snapshot";

/** A small session with an entry of each kind the index looks into: what a snapshot of it holds says how snapshots are laid out. */
const SAMPLE = [
  { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/" },
  { type: "model_change", id: "a", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", provider: "p", modelId: "m" },
  { type: "thinking_level_change", id: "b", parentId: "a", timestamp: "2026-01-01T00:00:02.000Z", thinkingLevel: "high" },
  { type: "message", id: "c", parentId: "b", timestamp: "2026-01-01T00:00:03.000Z", message: { role: "user", content: "q", timestamp: 1 } },
  {
    type: "message",
    id: "d",
    parentId: "c",
    timestamp: "2026-01-01T00:00:04.000Z",
    message: {
      role: "assistant",
      provider: "p",
      model: "m",
      content: [{ type: "toolCall", id: "t", name: "bash", arguments: {} }],
      usage: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, totalTokens: 10, cost: { total: 0.5 } },
      stopReason: "toolUse",
      timestamp: 2,
    },
  },
  { type: "compaction", id: "e", parentId: "d", timestamp: "2026-01-01T00:00:05.000Z", summary: "s", firstKeptEntryId: "c", tokensBefore: 9 },
  { type: "label", id: "f", parentId: "e", timestamp: "2026-01-01T00:00:06.000Z", targetId: "c", label: "l" },
  { type: "message", id: "g", parentId: "b", timestamp: "2026-01-01T00:00:07.000Z", message: { role: "user", content: "r", timestamp: 3 } },
  { type: "leaf", id: "h", parentId: "g", timestamp: "2026-01-01T00:00:08.000Z", targetId: "d" },
  { type: "context_edit", id: "i", parentId: "h", timestamp: "2026-01-01T00:00:09.000Z", targetId: "c" },
  { type: "session_info", id: "j", parentId: "i", timestamp: "2026-01-01T00:00:10.000Z", name: "n" },
  { id: "k", parentId: "zz", timestamp: "x" },
];

/**
 * What a snapshot this code writes depends on: the source of the classes it holds and the snapshot of a small
 * session. A kept snapshot made by other code (the server was upgraded) is made again rather than restored.
 */
export function snapshotLayout(): string {
  const text = new TextEncoder().encode(SAMPLE.map((line) => JSON.stringify(line)).join("\n") + "\n");
  const snapshot = sessionSnapshot(readLight(text, text.length, text.length, undefined, 1));
  return [...SNAPSHOT_CLASSES.map((c) => String(c.prototype.constructor)), snapshotJson(snapshot)].join("\n");
}

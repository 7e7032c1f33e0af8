import { randomEntryId, uuidv7 } from "../../ids";
import { isObject, jsonlOf } from "../../json";
import { caBranch } from "./branch";
import type { SessionTree } from "../session-tree";
import { SessionQueryError, type JsonObject, type SessionEntry, type SessionHeader } from "../../types";

export interface ForkOptions {
  /** new session id; default a fresh UUIDv7 (pi's choice) */
  sessionId?: string;
  /** ISO time of the fork; default now */
  timestamp?: string;
  /** path of the source file, written as `parentSession`; omitted when unknown (pi does the same in memory) */
  sourcePath?: string;
  /** id maker for the re-created label entries; default random 8-hex like pi */
  labelId?: (taken: Set<string>) => string;
  /** the harness and v4 (repo.fork): "at" keeps the entry, "before" forks at a user message's parent; the coding agent always forks at it */
  position?: "at" | "before";
}

export interface ForkResult {
  /** pi's file name: `<timestamp with : and . as ->_<session id>.jsonl` */
  fileName: string;
  header: SessionHeader;
  entries: JsonObject[];
  /** the JSONL text, one `JSON.stringify` per line, each ending in \n */
  text: string;
  /** pi writes the file at once only when the path holds an assistant message */
  hasAssistant: boolean;
}

/**
 * What the coding agent's `createBranchedSession(leafId)` writes (spec §12.1):
 * the root→leaf path without label entries, re-chained; the labels in force on
 * kept entries re-created after it; a new header pointing at the source.
 */
export function forkSession(tree: SessionTree, header: SessionHeader | null, leafId: string, options: ForkOptions = {}): ForkResult {
  const path = caBranch(tree, leafId);
  if (path.length === 0) throw new SessionQueryError("not-found", `Entry ${leafId} not found`);
  const kept: JsonObject[] = [];
  let parentId: string | null = null;
  for (const entry of path) {
    if (entry.type === "label") continue;
    kept.push({ ...tree.full(entry), parentId });
    parentId = entry.id;
  }
  const timestamp = options.timestamp ?? new Date().toISOString();
  const sessionId = options.sessionId ?? uuidv7(Date.parse(timestamp) || Date.now());
  const newHeader: SessionHeader = {
    type: "session",
    version: 3,
    id: sessionId,
    timestamp,
    cwd: header?.cwd,
    parentSession: options.sourcePath,
  };
  const keptIds = new Set(kept.map((e) => e.id as string));
  const makeId = options.labelId ?? randomEntryId;
  const labels: JsonObject[] = [];
  let labelParent: string | null = (kept[kept.length - 1]?.id as string | undefined) || null;
  for (const [targetId, state] of tree.labels("ca")) {
    if (!keptIds.has(targetId)) continue;
    const id = makeId(new Set(keptIds));
    keptIds.add(id);
    labels.push({ type: "label", id, parentId: labelParent, timestamp: state.timestamp, targetId, label: state.label });
    labelParent = id;
  }
  const entries = [...kept, ...labels];
  const hasAssistant = entries.some((e) => isAssistantEntry(e));
  const text = jsonlOf([newHeader, ...entries]);
  return { fileName: `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`, header: newHeader, entries, text, hasAssistant };
}

function isAssistantEntry(entry: SessionEntry): boolean {
  if (entry.type !== "message") return false;
  // pi reads `message.role` here without a guard and throws on a message-less entry
  if (entry.message == null)
    throw new SessionQueryError("invalid", `TypeError: Cannot read properties of ${entry.message === null ? "null" : "undefined"} (reading 'role')`);
  return isObject(entry.message) && entry.message.role === "assistant";
}

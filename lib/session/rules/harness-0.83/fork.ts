/**
 * What pi-agent-core 0.83's `repo.fork(source, {cwd, entryId, position})`
 * writes (spec §12.3): the harness path of the entry ("at") or of its parent
 * ("before", a user message only), copied verbatim — same ids, same parentIds,
 * so behind a compaction the first copied entry keeps a parent the new file
 * does not hold — under a new header naming the source.
 */
import { jsonlOf } from "../../json";
import { uuidv7 } from "../../ids";
import type { SessionTree } from "../session-tree";
import { SessionQueryError, type JsonObject, type SessionHeader } from "../../types";
import type { ForkOptions, ForkResult } from "../coding-agent-0.84/fork";
import { hxBranch } from "./branch";

/** "at" is the default here (pi's is "before"): the viewer forks at the selection, as the coding agent does. */
export function forkHarness(tree: SessionTree, header: SessionHeader | null, entryId: string, options: ForkOptions = {}): ForkResult {
  const target = tree.get(entryId);
  if (!target) throw new SessionQueryError("not-found", `Entry ${entryId} not found`);
  let leafId: string | null = target.id;
  if ((options.position ?? "at") === "before") {
    const message = target.message as { role?: unknown } | undefined;
    if (target.type !== "message" || message?.role !== "user") throw new SessionQueryError("invalid", `Entry ${entryId} is not a user message`);
    leafId = typeof target.parentId === "string" ? target.parentId : null;
  }
  const copied: JsonObject[] = leafId === null ? [] : hxBranch(tree, leafId).map((entry) => tree.full(entry));
  const timestamp = options.timestamp ?? new Date().toISOString();
  const id = options.sessionId ?? uuidv7(Date.parse(timestamp) || Date.now());
  const newHeader: SessionHeader = {
    type: "session",
    version: 3,
    id,
    timestamp,
    cwd: header?.cwd,
    parentSession: options.sourcePath,
    metadata: header?.metadata,
  };
  return {
    fileName: `${timestamp.replace(/[:.]/g, "-")}_${id}.jsonl`,
    header: newHeader,
    entries: copied,
    text: jsonlOf([newHeader, ...copied]),
    // the harness writes its file at once, whatever the path holds
    hasAssistant: copied.some((e) => (e.message as { role?: unknown } | undefined)?.role === "assistant"),
  };
}

import { uuidv7 } from "../../ids";
import { isObject, jsonlOf } from "../../json";
import { v4Branch } from "./context";
import type { ForkOptions, ForkResult } from "../coding-agent-0.84/fork";
import type { SessionTree } from "../session-tree";
import { SessionQueryError, type JsonObject, type SessionHeader } from "../../types";
import type { V4Log } from "../../read/v4-log";

export interface V4ForkOptions extends ForkOptions {
  /** "at" (default here, the viewer's fork): the entry's branch; "before": its parent's (pi's default when an entry is named) */
  position?: "at" | "before";
}

/**
 * What pi-agent-core 0.84.1's `repo.fork(source, {cwd, entryId, position})`
 * writes for one branch (dist/harness/session/state.js createForkMutations,
 * jsonl/repo.js, jsonl/codec.js): a new v4 header whose parentSessionId is the
 * source's id; the branch's entries with fresh sequence numbers and no lane;
 * the main lane set to the fork point; the name fact; the label facts of the
 * copied entries. Only a message entry can be forked at.
 */
export function forkV4Log(tree: SessionTree, log: V4Log, entryId: string, options: V4ForkOptions = {}): ForkResult {
  const entry = tree.get(entryId);
  if (!entry || entry.type !== "message") throw new SessionQueryError("invalid", `Fork target is not a message entry: ${entryId}`);
  const targetId = (options.position ?? "at") === "at" ? entry.id : typeof entry.parentId === "string" ? entry.parentId : null;
  const copied = targetId === null ? [] : v4Branch(tree, targetId);
  const mutations: JsonObject[] = [];
  let seq = 1;
  for (const source of copied) {
    const { kind: _kind, lane: _lane, ...fields } = source;
    void _kind;
    void _lane;
    mutations.push({ kind: "entry", ...fields, seq: seq++ });
  }
  mutations.push({ kind: "lane", seq: seq++, lane: "main", leafId: targetId });
  if (log.name !== undefined) mutations.push({ kind: "fact", seq: seq++, fact: "name", name: log.name });
  for (const source of copied) {
    const label = log.labels.get(source.id);
    if (label) mutations.push({ kind: "fact", seq: seq++, fact: "label", targetId: source.id, label: label.label });
  }
  const createdAt = options.timestamp ? Date.parse(options.timestamp) : Date.now();
  const id = options.sessionId ?? uuidv7(createdAt);
  const header = { kind: "header", version: 4, id, createdAt, cwd: log.header.cwd, parentSessionId: log.header.id };
  const text = jsonlOf([header, ...mutations]);
  const hasAssistant = copied.some((e) => isObject(e.message) && e.message.role === "assistant");
  return {
    fileName: `${new Date(createdAt).toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`,
    header: header as unknown as SessionHeader,
    entries: mutations,
    text,
    hasAssistant,
  };
}

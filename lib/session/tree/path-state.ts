import { isObject } from "../json";
import type { TreeEntry } from "../types";
import type { ModelRef } from "../types";
import { addUsage, entryUsage, ZERO_USAGE, type Usage } from "../usage";

/** What pi's path walk knows at one entry, derived once per entry from its parent's. */
export interface PathState {
  model: ModelRef | null;
  thinkingLevel: unknown;
  /** nearest compaction at or above this entry */
  compactionId: string | null;
  depth: number;
  usage: Usage;
  /** pi throws on this path (a message entry without a message) */
  error: string | null;
  cycle: boolean;
}

export const ROOT: PathState = { model: null, thinkingLevel: "off", compactionId: null, depth: 0, usage: ZERO_USAGE, error: null, cycle: false };

export function roleReadError(entry: TreeEntry): string | null {
  if (entry.type !== "message" || entry.message != null) return null;
  return `TypeError: Cannot read properties of ${entry.message === null ? "null" : "undefined"} (reading 'role')`;
}

export const CYCLE: PathState = { ...ROOT, cycle: true };

/** The state at `entry`, given its parent's: one step of pi's root→leaf walk. */
export function step(parent: PathState, entry: TreeEntry): PathState {
  if (parent.cycle) return parent;
  let { model, thinkingLevel } = parent;
  if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
  else if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
  else if (entry.type === "message" && isObject(entry.message) && entry.message.role === "assistant") {
    const { provider, model: modelId } = entry.message;
    // the parent's when it names the same model: most replies do, and a deep session has hundreds of thousands
    if (!model || model.provider !== provider || model.modelId !== modelId) model = { provider, modelId };
  }
  return {
    model,
    thinkingLevel,
    compactionId: entry.type === "compaction" ? entry.id : parent.compactionId,
    depth: parent.depth + 1,
    usage: addUsage(parent.usage, entryUsage(entry)),
    error: parent.error ?? roleReadError(entry),
    cycle: false,
  };
}

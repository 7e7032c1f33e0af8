import { isObject, timeOf } from "../json";
import type { SessionTree } from "../tree/tree";
import type { SessionEntry } from "../types";
import { addUsage, entryUsage, ZERO_USAGE, type Usage } from "../usage";

export interface SessionStats {
  entries: number;
  /** entries by type; `message` entries are further split in `roles` */
  types: Record<string, number>;
  roles: Record<string, number>;
  toolCalls: Record<string, number>;
  toolErrors: number;
  usage: Usage;
  /** "provider/model" → assistant messages answered by it */
  models: Record<string, number>;
  /** entries with more than one child */
  branchPoints: number;
  /** entries without children */
  leaves: number;
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  durationMs: number | null;
}

const bump = (map: Record<string, number>, key: string) => {
  map[key] = (map[key] ?? 0) + 1;
};

/** Totals over a set of entries (the whole file, or one path). */
export function sessionStats(entries: Iterable<SessionEntry>, tree?: SessionTree): SessionStats {
  const out: SessionStats = {
    entries: 0,
    types: {},
    roles: {},
    toolCalls: {},
    toolErrors: 0,
    usage: ZERO_USAGE,
    models: {},
    branchPoints: 0,
    leaves: 0,
    firstTimestamp: null,
    lastTimestamp: null,
    durationMs: null,
  };
  let first = Infinity;
  let last = -Infinity;
  for (const entry of entries) {
    out.entries++;
    bump(out.types, typeof entry.type === "string" ? entry.type : "(none)");
    out.usage = addUsage(out.usage, entryUsage(entry));
    const t = timeOf(entry.timestamp);
    if (!Number.isNaN(t)) {
      if (t < first) {
        first = t;
        out.firstTimestamp = entry.timestamp as string;
      }
      if (t > last) {
        last = t;
        out.lastTimestamp = entry.timestamp as string;
      }
    }
    if (tree && typeof entry.id === "string") {
      const kids = tree.children(entry.id).length;
      if (kids > 1) out.branchPoints++;
      if (kids === 0) out.leaves++;
    }
    const message = entry.message;
    if (entry.type !== "message" || !isObject(message)) continue;
    bump(out.roles, typeof message.role === "string" ? message.role : "(none)");
    if (message.role === "assistant") {
      bump(out.models, `${String(message.provider)}/${String(message.model)}`);
      if (Array.isArray(message.content)) {
        for (const block of message.content) if (isObject(block) && block.type === "toolCall") bump(out.toolCalls, String(block.name));
      }
    } else if (message.role === "toolResult" && message.isError === true) out.toolErrors++;
  }
  if (out.firstTimestamp !== null) out.durationMs = last - first;
  return out;
}

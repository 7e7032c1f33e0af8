/**
 * Stats for the viewer's Stats panel: the whole session, or one branch
 * (root → an entry, the full coding-agent path). Built on sessionStats and
 * entryUsage; adds what a panel wants beside the totals: usage per model,
 * compactions, and the path's own branch points. Cached per tree revision.
 */
import { isObject } from "../json";
import type { Session } from "../session";
import { sessionStats, type SessionStats } from "./session-stats";
import type { SessionEntry } from "../types";
import { addUsage, entryUsage, ZERO_USAGE, type Usage } from "../usage";

export interface ScopeStats extends SessionStats {
  /** entries of type `compaction` */
  compactions: number;
  /** "provider/model" → summed usage of the assistant messages it answered */
  modelUsage: Record<string, Usage>;
  /** usage of the LLM calls compactions and branch summaries made */
  summaryUsage: Usage;
}

export type StatsScope = { kind: "session" } | { kind: "branch"; id: string };

function panelStats(entries: readonly SessionEntry[], session: Session): ScopeStats {
  const base = sessionStats(entries, session.tree);
  const modelUsage: Record<string, Usage> = {};
  let summaryUsage = ZERO_USAGE;
  for (const entry of entries) {
    const usage = entryUsage(entry);
    if (!usage) continue;
    const message = entry.message;
    if (entry.type === "message" && isObject(message)) {
      const key = `${String(message.provider)}/${String(message.model)}`;
      modelUsage[key] = addUsage(modelUsage[key] ?? ZERO_USAGE, usage);
    } else summaryUsage = addUsage(summaryUsage, usage);
  }
  return { ...base, compactions: base.types.compaction ?? 0, modelUsage, summaryUsage };
}

const cache = new WeakMap<Session, { revision: number; byKey: Map<string, ScopeStats> }>();

/**
 * Stats of the whole file, or of the root → `id` path. A path pi cannot walk
 * (a parent cycle) throws SessionQueryError, as `session.branch` does.
 */
export function scopeStats(session: Session, scope: StatsScope): ScopeStats {
  const revision = session.tree.revision;
  let entry = cache.get(session);
  if (!entry || entry.revision !== revision) cache.set(session, (entry = { revision, byKey: new Map() }));
  const key = scope.kind === "session" ? "" : scope.id;
  let stats = entry.byKey.get(key);
  if (!stats) {
    if (entry.byKey.size > 64) entry.byKey.clear(); // one per branch looked at; a long browse should not pile them up
    stats = panelStats(scope.kind === "session" ? session.tree.entries : session.branch(scope.id, "ca"), session);
    entry.byKey.set(key, stats);
  }
  return stats;
}

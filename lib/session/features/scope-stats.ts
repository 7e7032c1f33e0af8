/**
 * Stats for the viewer's Stats panel: the whole session, or one branch
 * (root → an entry, the full coding-agent path), with the compactions counted.
 * Cached per tree revision.
 */
import type { Session } from "../session";
import { fileStats, sessionStats, type SessionStats } from "./session-stats";

export interface ScopeStats extends SessionStats {
  /** entries of type `compaction` */
  compactions: number;
}

export type StatsScope = { kind: "session" } | { kind: "branch"; id: string };

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
    const base = scope.kind === "session" ? fileStats(session.tree) : sessionStats(session.branch(scope.id, "ca"), session.tree);
    stats = { ...base, compactions: base.types.compaction ?? 0 };
    entry.byKey.set(key, stats);
  }
  return stats;
}

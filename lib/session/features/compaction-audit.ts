/**
 * A compaction entry beside what pi would have prepared at its place: the
 * same preparation (prepareCompaction, by the session's rules) on the path
 * before it, and what the file recorded. A compaction made with other
 * settings, by hand (/compact with instructions) or by an extension differs
 * and that is normal: the audit says where, not that it is wrong.
 */
import type { CompactionPreview } from "../rules/coding-agent-0.84/compaction";
import type { Session } from "../session";
import type { TreeEntry } from "../types";

export interface CompactionAudit {
  /** pi's preparation on the path before the compaction; null where pi would prepare nothing */
  computed: CompactionPreview | null;
  /** why pi cannot prepare one there (it throws) */
  error: string | null;
  recorded: { firstKeptEntryId: unknown; tokensBefore: unknown; readFiles: unknown; modifiedFiles: unknown; fromHook: boolean };
  /** per field: the recorded value is the computed one (null: nothing to compare) */
  same: { firstKeptEntryId: boolean | null; tokensBefore: boolean | null; files: boolean | null };
}

const sameList = (a: unknown, b: readonly string[]) => Array.isArray(a) && a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

export function compactionAudit(session: Session, entry: TreeEntry, keepRecentTokens: number): CompactionAudit {
  const details = (typeof entry.details === "object" && entry.details !== null ? entry.details : {}) as { readFiles?: unknown; modifiedFiles?: unknown };
  const recorded = {
    firstKeptEntryId: entry.firstKeptEntryId,
    tokensBefore: entry.tokensBefore,
    readFiles: details.readFiles,
    modifiedFiles: details.modifiedFiles,
    fromHook: entry.fromHook === true,
  };
  let computed: CompactionPreview | null = null;
  let error: string | null = null;
  const parent = typeof entry.parentId === "string" ? entry.parentId : null;
  if (parent !== null && session.tree.get(parent)) {
    try {
      computed = session.compaction(parent, keepRecentTokens);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
  }
  const hasFiles = details.readFiles !== undefined || details.modifiedFiles !== undefined;
  return {
    computed,
    error,
    recorded,
    same: computed
      ? {
          firstKeptEntryId: recorded.firstKeptEntryId === undefined ? null : recorded.firstKeptEntryId === computed.firstKeptEntryId,
          tokensBefore: recorded.tokensBefore === computed.tokensBefore,
          files: hasFiles ? sameList(recorded.readFiles, computed.readFiles) && sameList(recorded.modifiedFiles, computed.modifiedFiles) : null,
        }
      : { firstKeptEntryId: null, tokensBefore: null, files: null },
  };
}

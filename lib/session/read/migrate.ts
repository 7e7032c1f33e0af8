import { deterministicEntryId } from "../ids";
import { isObject } from "../json";
import type { SessionHeader } from "../types";

export interface MigrationResult {
  header: SessionHeader;
  note: string;
  /** set when pi's own migration would throw, so pi cannot open the file */
  error?: string;
}

/**
 * v1 → v2 → v3 exactly as pi's coding agent migrates on open (spec §3), in
 * place on the parsed lines (`parsed[0]` is the header). The one deliberate
 * difference: pi draws random ids for v1 entries, ours are deterministic.
 */
export function migrateEntries(header: SessionHeader, parsed: unknown[], fromVersion: number): MigrationResult {
  let error: string | undefined;
  if (fromVersion < 2) {
    const taken = new Set<string>();
    const seed = header.id;
    let prevId: string | null = null;
    let k = 0;
    for (const item of parsed) {
      if (!isObject(item) && !Array.isArray(item)) {
        error ??= "pi's v1 migration throws on a line that is not an object (it cannot give it an id), so pi cannot open this file";
        continue;
      }
      const entry = item as Record<string, unknown>;
      if (entry.type === "session") {
        entry.version = 2;
        continue;
      }
      entry.id = deterministicEntryId(seed, k++, taken);
      entry.parentId = prevId;
      prevId = entry.id as string;
      if (entry.type === "compaction" && typeof entry.firstKeptEntryIndex === "number") {
        const target = parsed[entry.firstKeptEntryIndex];
        if (isObject(target) && target.type !== "session") entry.firstKeptEntryId = target.id;
        delete entry.firstKeptEntryIndex;
      }
    }
  }
  for (const item of parsed) {
    if (!isObject(item)) continue;
    if (item.type === "session") {
      item.version = 3;
      continue;
    }
    const message = item.message;
    if (item.type === "message" && isObject(message) && message.role === "hookMessage") message.role = "custom";
  }
  const note =
    fromVersion < 2
      ? `version ${fromVersion} file migrated to version 3 as pi does on open: entries chained in file order with new ids (pi's are random, ours deterministic)`
      : `version ${fromVersion} file migrated to version 3 as pi does on open (hookMessage → custom)`;
  return error ? { header, note, error } : { header, note };
}

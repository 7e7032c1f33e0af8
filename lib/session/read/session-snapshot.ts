import { EntryShapes } from "../tree/entry-shapes";
import type { EntrySource } from "../tree/entry-source";
import { Interned } from "../tree/interned";
import { LeafSteps } from "../tree/leaf-steps";
import { PathStates } from "../tree/path-states";
import { StatsTally } from "../tree/stats-tally";
import { SessionTree } from "../rules/session-tree";
import { FormatEvidence } from "../rules/format-evidence";
import { CodingAgentTreeState } from "../rules/coding-agent-0.84/tree-state";
import { ContextEditTargets } from "../rules/coding-agent-0.87/context-edit-targets";
import { HarnessTreeState } from "../rules/harness-0.83/tree-state";
import { LightFrameTable } from "./light-frame-table";
import { LineKinds } from "./line-kinds";
import { LineOffsets } from "./line-offsets";
import type { LineTexts } from "./line-texts";
import { LineReader } from "./lines";
import { decodeSnapshot, encodeSnapshot, reviveSnapshot, SnapshotError, type SnapshotClass, type SnapshotParts } from "./object-snapshot";
import { SessionParser } from "./parse";

/**
 * What a session's index is made of. Caches and what the reader supplies (where content and entries are read
 * again from) are left out and made fresh: a restored index reads them from the reader that restores it.
 */
export const SNAPSHOT_CLASSES: readonly SnapshotClass[] = [
  { name: "SessionParser", prototype: SessionParser.prototype, transient: { cutLines: () => null } },
  {
    name: "SessionTree",
    prototype: SessionTree.prototype,
    // the entry store (entries, content, what the reader supplies) and the index of ids, each whole: restored()
    // makes both again, so what either comes to hold is never written
    transient: { store: () => null, idIndex: () => null },
    restored: (tree: SessionTree) => tree.restored(),
  },
  { name: "PathStates", prototype: PathStates.prototype, transient: { lastUsage: () => null, lastRow: () => 0 } },
  { name: "EntryShapes", prototype: EntryShapes.prototype },
  { name: "Interned", prototype: Interned.prototype },
  { name: "LeafSteps", prototype: LeafSteps.prototype },
  { name: "StatsTally", prototype: StatsTally.prototype },
  { name: "FormatEvidence", prototype: FormatEvidence.prototype },
  { name: "CodingAgentTreeState", prototype: CodingAgentTreeState.prototype },
  { name: "HarnessTreeState", prototype: HarnessTreeState.prototype },
  { name: "ContextEditTargets", prototype: ContextEditTargets.prototype },
  { name: "LineReader", prototype: LineReader.prototype },
  { name: "LineOffsets", prototype: LineOffsets.prototype },
  { name: "LineKinds", prototype: LineKinds.prototype },
  { name: "LightFrameTable", prototype: LightFrameTable.prototype },
];

/**
 * What a snapshot holds: the index, and where the light lines it was made from are: where each changed line is
 * in the file, and each frame in the kept light index. With those, a page shows the restored index before the
 * frames have come (an entry read early is read from its frame by range: EarlyLightText).
 */
export interface KeptIndex {
  parser: SessionParser;
  offsets: LineOffsets | null;
  frames: LightFrameTable | null;
  /** the final line without newline ("" if none): it comes in the end frame, after all the others */
  last: string;
}

/**
 * The index a LightSessionReader built with keepLightText (its tree reads its entries again from the light
 * text), as bytes: restoreSession makes the same index from them without parsing a line. The server keeps one
 * beside a library file's light index, so a session opened again is shown without being read again.
 */
export function sessionSnapshot(parser: SessionParser, where: Omit<KeptIndex, "parser"> = { offsets: null, frames: null, last: "" }): Uint8Array {
  // (a v1/v2 file is migrated whole and a v4 log keeps its own records: the server sends those whole, not as light lines)
  if (!parser.readsAsLight) throw new SnapshotError("only the index of a file read line by line as written (v3) is kept as a snapshot");
  if (!parser.tree.entrySource) throw new SnapshotError("only an index whose tree reads its entries again from a source is kept as a snapshot");
  return encodeSnapshot({ parser, offsets: where.offsets, frames: where.frames, last: where.last } satisfies KeptIndex, SNAPSHOT_CLASSES);
}

/** What sessionSnapshot kept, its index not yet reading from anything (restoreSession binds it). */
export function keptIndex(snapshot: Uint8Array | SnapshotParts): KeptIndex {
  const kept = snapshot instanceof Uint8Array ? decodeSnapshot(snapshot, SNAPSHOT_CLASSES) : reviveSnapshot(snapshot, SNAPSHOT_CLASSES);
  const { parser, offsets, frames, last } = (kept ?? {}) as Partial<KeptIndex>;
  if (!(parser instanceof SessionParser)) throw new SnapshotError("the snapshot does not hold a session's index");
  if (offsets !== null && !(offsets instanceof LineOffsets)) throw new SnapshotError("the snapshot's line offsets are not an index of lines");
  if (frames !== null && !(frames instanceof LightFrameTable)) throw new SnapshotError("the snapshot's frame table is not one");
  if (typeof last !== "string") throw new SnapshotError("the snapshot's final line is not text");
  return { parser, offsets, frames, last };
}

/**
 * The index sessionSnapshot kept, reading content from `lines` and entries from `entries` (what the reader that
 * made it had, made again from the same light lines).
 */
export function restoreSession(snapshot: Uint8Array | SnapshotParts | KeptIndex, lines: LineTexts, entries: EntrySource, keepEntries?: number): SessionParser {
  const { parser } = snapshot instanceof Uint8Array || !("parser" in snapshot) ? keptIndex(snapshot) : snapshot;
  parser.readCutLinesFrom(lines);
  parser.tree.readEntriesFrom(entries, keepEntries);
  return parser;
}

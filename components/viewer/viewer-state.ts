/**
 * What the viewer's store holds, as types: the open session, how it is loading and every choice the user made
 * about the view. The store (store.ts) keeps one such state and changes it; what reads the state (the URL, the
 * graph, search, compare) takes its type from here. Not responsible for changing it.
 */
import type { SearchResult, Session } from "@/lib/session";
import type { TreeFilter } from "@/lib/layout/tree-filter";
import type { InspectorTab, ShareManifest } from "@/lib/share/manifest";
import type { LiveStatus } from "@/lib/client/live-tail";
import type { SessionSource } from "@/lib/client/session-source";
import type { ReadingToggles, ViewCompactionSettings } from "./view-params";

export interface LoadState {
  phase: "idle" | "loading" | "ready" | "error";
  /** bytes (or characters) read so far / in all, for the progress bar */
  done: number;
  total: number;
  error: string | null;
}

/** The open session as it was at one revision; replaced, never changed, when the session grows. */
export interface SessionDoc {
  readonly session: Session;
  /** 1 for the session as loaded, one more each time it grows */
  readonly revision: number;
}

export interface ViewerState {
  source: SessionSource | null;
  live: LiveStatus;
  /** while live: select each new leaf as it is written (the viewport follows the selection); off, nothing moves */
  follow: boolean;
  doc: SessionDoc | null;
  /** file name shown to the user and used in diagnostics ("file.jsonl:12: …") */
  fileName: string | null;
  /** what a share file says about the session it carries (scope, redaction, when); null for any other source */
  share: ShareManifest | null;
  load: LoadState;
  /** changes when the session's diagnostics grow without the tree changing (the schema check arrives late) */
  diagnosticsRevision: number;
  selectedId: string | null;
  tab: InspectorTab;
  /** folded linear segments the user opened, by segment key (see lib/layout) */
  expandedSegments: ReadonlySet<string>;
  /** subtrees the user closed, by the id of their top entry */
  collapsed: ReadonlySet<string>;
  /** position on the leaf-history timeline; null = the end (the file as it is) */
  historyStep: number | null;
  /** fade what compaction cut from the selected node's context */
  contextOverlay: boolean;
  /** the Context tab shows the context's messages, or what the model is sent (after convertToLlm) */
  contextView: "messages" | "llm";
  /** how messages read (keys t, o, h): thinking shown, tool outputs unfolded, custom messages pi does not display shown */
  reading: ReadingToggles;
  compactionSettings: ViewCompactionSettings;
  /** the entry a compaction at the selection would keep first (the Context tab's preview, while open); the graph marks it */
  firstKeptPreview: string | null;
  /** the search box's query; "" = no search */
  searchQuery: string;
  /** which entries the graph draws: pi's /tree mode, hidden entry types and roles */
  treeFilter: TreeFilter;
  /** what the Stats tab totals: the whole file, or root → the selected entry */
  statsScope: "session" | "branch";
  /** an open comparison of `a` (the selection when it was opened; the selection can move on) with `b`, or
   * "Compare with…" waiting for a second node to compare `pickFrom` with */
  compare: { a: string; b: string } | { pickFrom: string } | null;
  /** content being read from the session's file (SessionTree.readContent) for what is shown, and the last read's failure */
  contentReads: { pending: number; error: string | null };
  /** the search streamed through the file (a session whose content is read on demand): for which query and doc, and its hits so far */
  searchStream: SearchStream | null;
  /** the open library file's fork family (its source, forks, the entries it inherited); null until the server says */
  family: ViewerFamily | null;
}

export interface SearchStream {
  query: string;
  doc: SessionDoc;
  result: SearchResult;
  error: string | null;
}

/** A library file's place among its forks (GET /api/sessions/family), as the viewer keeps it. */
export interface ViewerFamily {
  source: { path: string; name: string | null; fromEntryId: string | null; fromEntry: string | null; leafId: string | null } | null;
  /** what the header names as the source when the library does not hold it */
  missingSource: string | null;
  forks: { path: string; name: string | null }[];
  /** this file's entries copied from its source: the source's work, not this file's */
  inherited: ReadonlySet<string>;
}

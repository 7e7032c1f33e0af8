// Messages between the viewer page and search.worker.ts: a search streamed through a session's own bytes (the
// picked file, or the library file over HTTP) for a session whose content the page does not hold.
import type { SearchResult } from "@/lib/session";
import type { ShareSource } from "./share-protocol";

/** The session's own bytes, as the Share dialog's worker reads them too (components/share/share-source.ts). */
export type SearchSource = ShareSource;

export type SearchRequest =
  /**
   * search the source for `query`; `entryLines`: the line of each entry of the page's index, in file order;
   * `labels`: the label each entry carries, as [id, label]
   */
  | { kind: "search"; id: number; source: SearchSource; query: string; limit: number; entryLines: Int32Array; labels: [string, string][] }
  /** stop search `id` (a newer query replaced it, or the page moved on) */
  | { kind: "cancel"; id: number };

export type SearchReply =
  /** the hits so far (result.complete false), then the last one (complete true) */
  { type: "result"; id: number; result: SearchResult } | { type: "failed"; id: number; message: string };

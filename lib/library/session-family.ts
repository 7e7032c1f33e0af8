// What GET /api/sessions/family sends about one library file (built by lib/server/serve-family) and the viewer
// reads. Types only, so both the server and the browser can share them.
import type { SourceMatch } from "./fork-families";

export interface SessionFamily {
  file: string;
  /** the family's first file */
  root: string;
  /** the file it was forked from, in this library, and the entry it left it at */
  source: {
    path: string;
    name: string | null;
    by: SourceMatch;
    fromEntryId: string | null;
    fromEntry: string | null;
    /** the source's last entry (its leaf by the coding agent's rule) */
    leafId: string | null;
  } | null;
  /** what the header names as the source when the library does not hold it (a path, or a v4 session id) */
  missingSource: string | null;
  /** files forked from it, newest activity first */
  forks: { path: string; name: string | null }[];
  /** its entries copied from its source (same id, same content) */
  inherited: string[];
}

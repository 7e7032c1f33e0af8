// Messages between the Share dialog and share.worker.ts. The worker holds its own copy of the session (read
// from the source's text), so scanning a big session for the preview and writing the file never stop the page.
import type { RedactionOptions } from "@/lib/export/redaction-rules";
import type { RuleSetId } from "@/lib/session";
import type { ShareManifest, ShareScope } from "@/lib/share/manifest";
import type { SharePreview } from "@/lib/share/preview";
import type { Protection } from "@/lib/share/seal";

/** Where the worker reads the session from: the page's session holds only cut-down text of big values. */
export type ShareSource = { kind: "url"; url: string } | { kind: "blob"; blob: Blob };

export interface ShareScopeChoice {
  scope: ShareScope;
  entryId: string | null;
  sourcePath?: string;
}

export type ShareRequest =
  /** read the session's own bytes (a URL the page may fetch, or the picked file) and index them with the page's rules */
  | { kind: "load"; source: ShareSource; fileName: string; reader: RuleSetId }
  | { kind: "preview"; id: number; choice: ShareScopeChoice; rules: RedactionOptions | null }
  | {
      kind: "write";
      id: number;
      template: string;
      choice: ShareScopeChoice;
      rules: RedactionOptions | null;
      tab: ShareManifest["tab"];
      dropImages: boolean;
      protection: Protection;
    };

export interface ShareWritten {
  html: string;
  key: string | null;
  manifest: ShareManifest;
  sizes: { session: number; compressed: number; file: number };
}

export type ShareReply =
  | { type: "loaded" }
  | { type: "preview"; id: number; preview: SharePreview }
  | { type: "written"; id: number; file: ShareWritten }
  | { type: "failed"; id: number | null; message: string };

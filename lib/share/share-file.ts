// Writes a share file: the session data for the chosen scope (masked, images dropped if asked), a manifest
// that says what was done (rule names and counts, never what was masked), compressed, sealed if asked, and
// put in the viewer page. The same code runs in the CLI (Node) and in the Share dialog (browser).
import type { Session } from "@/lib/session/session";
import { clipTitle, SHARE_TITLE_CHARS } from "@/lib/session/features/title";
import { transcriptTitle } from "@/lib/session/features/transcript-model";
import { SHARE_FORMAT, type ShareManifest, type ShareRedaction } from "./manifest";
import { packShare } from "./pack";
import { seal, type Protection } from "./seal";
import { shareData, type ShareDataOptions } from "./share-data";
import { embedShare } from "./share-html";
import { utf8Length } from "./utf8-length";

export const SHARE_GENERATOR = "pi-session-viewer";

export interface ShareFileOptions extends ShareDataOptions {
  tab: ShareManifest["tab"];
  protection: Protection;
  /** the record of what the redactor masked, from its counts (names and counts only) */
  record?: (counts: Record<string, number>) => ShareRedaction;
  /** the time written in the manifest; default now */
  createdAt?: string;
}

export interface ShareFile {
  html: string;
  /** the key for a link's #k= when the data is sealed with a random key */
  key: string | null;
  manifest: ShareManifest;
  sizes: { session: number; compressed: number; file: number };
}

function titleOf(session: Session, options: ShareFileOptions): string {
  const path = options.entryId && session.tree.get(options.entryId) ? session.branch(options.entryId) : [];
  const title = transcriptTitle(session, path);
  // the title is written outside the masked lines (manifest, <title>): it is masked the same way
  const masked = options.redactor ? options.redactor.text(title, {}) : title;
  // a session name can be any length; readManifest accepts titles up to 1000 characters
  return clipTitle(masked, SHARE_TITLE_CHARS);
}

export async function makeShareFile(template: string, session: Session, sourceText: string, sourceName: string, options: ShareFileOptions): Promise<ShareFile> {
  const data = shareData(session, sourceText, sourceName, options);
  const bytes = utf8Length(data.text);
  const manifest: ShareManifest = {
    format: SHARE_FORMAT,
    version: 1,
    scope: options.scope,
    fileName: data.fileName,
    title: titleOf(session, options),
    entryId: options.entryId,
    tab: options.tab,
    createdAt: options.createdAt ?? new Date().toISOString(),
    generator: SHARE_GENERATOR,
    redaction: data.counts ? (options.record?.(data.counts) ?? { rules: [], total: 0 }) : null,
    images: data.images,
    lines: data.lines,
    bytes,
  };
  const packed = await packShare(manifest, data.text);
  const sealed = await seal(packed, options.protection);
  // a sealed file's <title> would tell what it holds to anyone who sees the file name or a tab
  const html = embedShare(template, sealed.text, options.protection.kind === "none" ? manifest.title : null);
  return { html, key: sealed.key, manifest, sizes: { session: bytes, compressed: packed.byteLength, file: html.length } };
}

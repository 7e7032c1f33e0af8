/** Names for the files the viewer hands out; a fork's name is pi's own (`ForkResult.fileName`). */

const MAX_SLUG = 48;

/** `<session name or id, as a slug>_<entry id>.md`: readable, stable for one entry, safe on every file system. */
export function transcriptFileName(title: string | null, sessionId: string | null, entryId: string): string {
  const base = slug(title ?? "") || slug(sessionId ?? "") || "session";
  return `${base}_${slug(entryId) || "entry"}.md`;
}

function slug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG)
    .replace(/-+$/, "");
}

/**
 * `<session file name>.share.html`, with what Windows refuses in a file name (a redacted name holds `:`) made `-`.
 */
export function shareFileName(sessionFileName: string): string {
  const base = sessionFileName.replace(/\.jsonl$/, "").replace(/[<>:"/\\|?*\u0000-\u001f]/g, "-");
  return `${base || "session"}.share.html`;
}

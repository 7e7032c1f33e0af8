// A session's display title, and how any title is put on one line and cut: one rule for the viewer, the library,
// the transcripts and share files. Where the cut falls depends on where the title shows, one length per place.
import { textOf } from "../json";
import type { Session } from "../session";
import type { SessionEntry } from "../types";

/** The top bar's title (and the tab's): one line, which CSS clips before this. */
export const TITLE_CHARS = 160;
/** A transcript's heading and page title: shorter than the top bar's, it names a document. */
export const TRANSCRIPT_TITLE_CHARS = 80;
/** The entry a fork left its source at, named inside a sentence ("forked at “…”"). */
export const HEADLINE_CHARS = 80;
/**
 * The first message the library lists an unnamed session by: the library's filter matches its words, so it holds
 * more than a row shows (CSS clips the row).
 */
export const LISTED_TITLE_CHARS = 200;
/** A share file's title (its manifest, its page's <title>): a label of a file handed on, where a name may be any length. */
export const SHARE_TITLE_CHARS = 200;

/** `text` cut at `maxChars` characters, the cut marked with "…" (no space before it); as it is when it fits. */
export function clipTitle(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars - 1).trimEnd()}…` : text;
}

/** `text` as a one-line title: whitespace folded and trimmed, then cut at `maxChars` (clipTitle). */
export function oneLineTitle(text: string, maxChars: number): string {
  return clipTitle(text.replace(/\s+/g, " ").trim(), maxChars);
}

/** A user message's text as a one-line title (oneLineTitle); null when it has no text. */
export function messageTitle(content: unknown, maxChars = TITLE_CHARS): string | null {
  return oneLineTitle(textOf(content), maxChars) || null;
}

/** What a session is titled by: its name (null when it has none), and its first user message's title. */
export interface TitleParts {
  sessionName: string | null;
  firstMessage: string | null;
}

/** A session's display title: its name, else its first user message's title; null when neither. */
export function displayTitle({ sessionName, firstMessage }: TitleParts): string | null {
  return sessionName ?? firstMessage;
}

/** displayTitle of a read session: the first user message among `entries` (the whole file unless given), cut at `maxChars`. */
export function sessionTitle(session: Session, entries: Iterable<SessionEntry> = session.tree.allEntries(), maxChars = TITLE_CHARS): string | null {
  // an empty name (a v4 log keeps "" as given) titles nothing here; the first message is looked for only without a name
  const sessionName = session.name || null;
  return displayTitle({ sessionName, firstMessage: sessionName === null ? firstMessageTitle(entries, maxChars) : null });
}

function firstMessageTitle(entries: Iterable<SessionEntry>, maxChars: number): string | null {
  for (const entry of entries) {
    const message = entry.message as { role?: unknown; content?: unknown } | undefined;
    if (entry.type !== "message" || message?.role !== "user") continue;
    const title = messageTitle(message.content, maxChars);
    if (title) return title;
  }
  return null;
}

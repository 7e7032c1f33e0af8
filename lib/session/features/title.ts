import { textOf } from "../json";
import type { Session } from "../session";
import type { SessionEntry } from "../types";

/** A title longer than this is cut: the top bar and a library row show one line, and CSS clips it before that. */
export const TITLE_CHARS = 160;

/** A user message's text as a one-line title: whitespace folded, cut at `maxChars` with "…"; null when it has no text. */
export function messageTitle(content: unknown, maxChars = TITLE_CHARS): string | null {
  const flat = textOf(content).replace(/\s+/g, " ").trim();
  if (!flat) return null;
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1).trimEnd()}…` : flat;
}

/** The session's name, else the first user message among `entries` (the whole file unless given) as a title; null when neither. */
export function sessionTitle(session: Session, entries: Iterable<SessionEntry> = session.tree.allEntries(), maxChars = TITLE_CHARS): string | null {
  if (session.name) return session.name;
  for (const entry of entries) {
    const message = entry.message as { role?: unknown; content?: unknown } | undefined;
    if (entry.type !== "message" || message?.role !== "user") continue;
    const title = messageTitle(message.content, maxChars);
    if (title) return title;
  }
  return null;
}

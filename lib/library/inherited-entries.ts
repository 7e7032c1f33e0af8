// Which entries a fork copied from its source. pi's forks copy entries with their ids and content: verbatim
// (`forkFrom`, the harness's `repo.fork`, a v4 fork) or re-chained past dropped label entries
// (`createBranchedSession`), so only `parentId` (and a v4 line's `seq` and `lane`) may differ. An entry of the
// fork is inherited when its source holds an entry with the same id and the same content; it is the source's
// work, not the fork's. Pure.
import { messageTitle } from "@/lib/session";
import { HEADLINE_CHARS } from "@/lib/session/features/title";
import { isObject } from "@/lib/session/json";

/** An entry as the fork comparison sees it: its id, and a hash of its content without where it hangs. */
export interface EntryFingerprint {
  id: string;
  hash: number;
}

/** The fingerprint of one parsed line, or null for a line that is no entry (a header, a v4 record). */
export function entryFingerprint(value: unknown): EntryFingerprint | null {
  if (!isObject(value) || typeof value.id !== "string" || value.id === "") return null;
  if (value.type === "session" || (value.kind !== undefined && value.kind !== "entry")) return null;
  // what places the line in its file rather than says what the entry is
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { parentId, seq, lane, ...content } = value;
  return { id: value.id, hash: hash53(JSON.stringify(content)) };
}

/** cyrb53: a fast 53-bit string hash; equal fingerprints with different content are as rare as 1 in 2^53. */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export interface Inheritance {
  /** the fork's entries that its source holds, same id and content */
  inherited: ReadonlySet<string>;
  /** the fork's last inherited entry (file order): where it left its source; null when it copied nothing */
  fromEntryId: string | null;
}

/** What `fork` inherited from `source` (both in file order; an id written twice: its last line counts, as in pi). */
export function inheritance(source: readonly EntryFingerprint[], fork: readonly EntryFingerprint[]): Inheritance {
  const sourceHashes = new Map<string, number>();
  for (const entry of source) sourceHashes.set(entry.id, entry.hash);
  const last = new Map<string, number>();
  for (const entry of fork) last.set(entry.id, entry.hash);
  const inherited = new Set<string>();
  let fromEntryId: string | null = null;
  for (const entry of fork) {
    if (last.get(entry.id) !== entry.hash) continue; // an earlier line of an id written again
    if (sourceHashes.get(entry.id) === entry.hash) {
      inherited.add(entry.id);
      fromEntryId = entry.id;
    }
  }
  return { inherited, fromEntryId };
}

/** How the library names the entry a fork left its source at: a message's first words, else the entry's type. */
export function entryHeadline(entry: unknown, maxChars = HEADLINE_CHARS): string {
  if (!isObject(entry)) return "an unreadable entry";
  const message = entry.message;
  if (entry.type === "message" && isObject(message)) {
    const text = messageTitle(message.content, maxChars);
    if (message.role === "toolResult") return `${typeof message.toolName === "string" ? message.toolName : "tool"} result`;
    if (text && (message.role === "user" || message.role === "assistant")) return `“${text}”`;
    return `${typeof message.role === "string" ? message.role : "a"} message`;
  }
  if (entry.type === "session_info" && typeof entry.name === "string") return `the name “${entry.name}”`;
  return typeof entry.type === "string" ? `a ${entry.type.replaceAll("_", " ")} entry` : "an entry";
}

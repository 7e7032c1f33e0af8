// The session lines a share file carries, for each scope: the whole file as it is, the fork pi would write at
// an entry (exactly what Export fork downloads), or the header and the root → entry path alone. Masking and
// image dropping work line by line on parsed JSON, so ids, parents and types never change; a line neither
// touches is kept byte for byte, unless it names a key twice and is being redacted (duplicate-keys.ts).
import { Session } from "@/lib/session/session";
import { dropImages, type DroppedImages } from "./drop-images";
import { hasDuplicateKeys } from "./duplicate-keys";
import type { ShareScope } from "./manifest";

/** Masks secrets in a parsed line's strings, keys included (and in a line that is not JSON), counting by rule. */
export interface LineRedactor {
  json(value: unknown, counts: Record<string, number>): unknown;
  text(line: string, counts: Record<string, number>): string;
}

export interface ShareDataOptions {
  scope: ShareScope;
  /** the entry a fork or path ends at (the session scope selects it on open) */
  entryId: string | null;
  /** the source file's path, written as the fork's parentSession as pi does */
  sourcePath?: string;
  redactor?: LineRedactor | null;
  dropImages?: boolean;
}

export interface ShareData {
  text: string;
  /** the file name the data had: the source's, or pi's name for the fork */
  fileName: string;
  /** masked secrets by rule (null: no redaction asked for) */
  counts: Record<string, number> | null;
  images: DroppedImages | null;
  lines: number;
}

export class ShareScopeError extends Error {}

/** Why `scope` cannot be shared at `entryId`, or null. */
export function scopeProblem(session: Session, scope: ShareScope, entryId: string | null): string | null {
  if (scope === "session") return null;
  if (entryId === null || !session.tree.get(entryId)) return "Select an entry: a fork or a path ends at one.";
  if (scope === "path" && !session.header) return "A path is shared with the session's header line, and this file has none.";
  if (scope === "path" && session.v4) return "A pi-agent-core v4 log is shared whole or as a fork, not as a bare path.";
  return null;
}

/** The lines of the chosen scope, before masking; fileName: pi's name for a fork, else null (the source's). */
export function scopedText(
  session: Session,
  sourceText: string,
  options: Pick<ShareDataOptions, "scope" | "entryId" | "sourcePath">,
): { text: string; fileName: string | null } {
  const problem = scopeProblem(session, options.scope, options.entryId);
  if (problem) throw new ShareScopeError(problem);
  if (options.scope === "session") return { text: sourceText, fileName: null };
  const entryId = options.entryId!;
  if (options.scope === "fork") {
    const fork = session.fork(entryId, options.sourcePath ? { sourcePath: options.sourcePath } : {});
    return { text: fork.text, fileName: fork.fileName };
  }
  const lines = [JSON.stringify(session.header)];
  for (const entry of session.branch(entryId)) lines.push(JSON.stringify(session.tree.full(entry)));
  return { text: `${lines.join("\n")}\n`, fileName: null };
}

export function shareData(session: Session, sourceText: string, sourceName: string, options: ShareDataOptions): ShareData {
  const scoped = scopedText(session, sourceText, options);
  const counts = options.redactor ? {} : null;
  const images = options.dropImages ? { dropped: 0, bytes: 0 } : null;
  const lines = scoped.text.split("\n");
  const trailing = lines[lines.length - 1] === "" ? lines.pop() : undefined;
  if (counts || images) {
    for (let i = 0; i < lines.length; i++) lines[i] = transformLine(lines[i]!, options.redactor ?? null, counts, images);
  }
  if (trailing !== undefined) lines.push(trailing);
  const name = scoped.fileName ?? (options.scope === "path" ? sourceName.replace(/(\.jsonl)?$/, () => `.path-${options.entryId}.jsonl`) : sourceName);
  // written outside the masked lines (the manifest, the saved file's name), so masked as the title is: uncounted,
  // as the preview counts the lines alone
  const fileName = options.redactor ? options.redactor.text(name, {}) : name;
  return { text: lines.join("\n"), fileName, counts, images, lines: trailing === undefined ? lines.length : lines.length - 1 };
}

function transformLine(line: string, redactor: LineRedactor | null, counts: Record<string, number> | null, images: DroppedImages | null): string {
  if (line.trim() === "") return line;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // an unreadable line is carried as it is (the viewer reports it), masked as text
    return redactor ? redactor.text(line, counts!) : line;
  }
  const before = changes(counts, images);
  if (images) dropImages(value, images);
  if (redactor) value = redactor.json(value, counts!);
  if (changes(counts, images) !== before) return JSON.stringify(value);
  // the bytes would carry a duplicate key's first value, which the rules never saw
  return redactor && hasDuplicateKeys(line) ? JSON.stringify(value) : line;
}

function changes(counts: Record<string, number> | null, images: DroppedImages | null): number {
  let n = images?.dropped ?? 0;
  if (counts) for (const k in counts) n += counts[k]!;
  return n;
}

/**
 * Whether an export can be made at an entry, and if not, pi's own reason —
 * decided without building the export when possible, since a fork of a long
 * path is megabytes of JSON and selection changes often.
 */
import { SessionQueryError, type Session } from "@/lib/session";

function reason(error: unknown): string {
  if (error instanceof SessionQueryError) return error.message;
  throw error;
}

/** How a fork is written: the coding agent's createBranchedSession, or the harness's repo.fork at or before the entry. */
export type ForkKind = "ca" | "hx-at" | "hx-before";

/** null when the fork of `kind` at `id` can be written; else why not (pi's reason). */
export function forkProblem(session: Session, id: string, kind: ForkKind = "ca"): string | null {
  if (kind !== "ca") {
    try {
      const entry = session.tree.get(id);
      const message = entry?.message as { role?: unknown } | undefined;
      if (kind === "hx-before" && (entry?.type !== "message" || message?.role !== "user")) return `Entry ${id} is not a user message`;
      const from = kind === "hx-at" ? id : typeof entry?.parentId === "string" ? entry.parentId : null;
      if (from !== null) session.sharedBranch(from, "hx");
      return null;
    } catch (error) {
      return reason(error);
    }
  }
  try {
    if (session.sharedBranch(id, "ca").length === 0) return `Entry ${id} not found`;
  } catch (error) {
    return reason(error);
  }
  try {
    session.context(id, "ca");
    return null;
  } catch (error) {
    reason(error);
  }
  // a message entry without a message is on the path: pi's fork trips over it only
  // before the first assistant message, so only the fork itself can tell (rare)
  try {
    session.fork(id, { sessionId: "00000000-0000-7000-8000-000000000000", timestamp: "1970-01-01T00:00:00.000Z" }, "ca");
    return null;
  } catch (error) {
    return reason(error);
  }
}

/** null when the transcript (the chosen reader's path) can be written; else why not. */
export function transcriptProblem(session: Session, id: string): string | null {
  try {
    return session.sharedBranch(id).length === 0 ? `Entry ${id} not found` : null;
  } catch (error) {
    return reason(error);
  }
}

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

/** null when `session.fork(id)` succeeds; else why it throws. */
export function forkProblem(session: Session, id: string): string | null {
  try {
    if (session.branch(id, "ca").length === 0) return `Entry ${id} not found`;
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
    session.fork(id, { sessionId: "00000000-0000-7000-8000-000000000000", timestamp: "1970-01-01T00:00:00.000Z" });
    return null;
  } catch (error) {
    return reason(error);
  }
}

/** null when the transcript (the chosen reader's path) can be written; else why not. */
export function transcriptProblem(session: Session, id: string): string | null {
  try {
    return session.branch(id).length === 0 ? `Entry ${id} not found` : null;
  } catch (error) {
    return reason(error);
  }
}

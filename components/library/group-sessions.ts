// Grouping and filtering of the library list; pure, so it can be tested without a browser.
import type { LibrarySession, ProjectGroup } from "./library-types";

/**
 * Groups by header cwd (pi's folder name is a lossy encoding of it), keeping the input's order inside and
 * between groups. A file without a readable header joins the cwd of its folder's other sessions.
 */
export function groupByProject(sessions: readonly LibrarySession[]): ProjectGroup[] {
  const folderCwd = new Map<string, string>();
  for (const session of sessions) if (session.cwd && session.project && !folderCwd.has(session.project)) folderCwd.set(session.project, session.cwd);
  const groups = new Map<string, ProjectGroup>();
  for (const session of sessions) {
    const cwd = session.cwd ?? folderCwd.get(session.project) ?? null;
    const key = cwd ?? (session.project || "(top level)");
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, cwd, project: session.project, sessions: [] }));
    group.sessions.push(session);
  }
  return [...groups.values()];
}

/** Sessions whose name, cwd or path contain every word of the query (case-insensitive). */
export function filterSessions(sessions: readonly LibrarySession[], query: string): LibrarySession[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return sessions.slice();
  return sessions.filter((session) => {
    const haystack = `${session.name ?? ""}\n${session.cwd ?? ""}\n${session.path}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

// Grouping and filtering of the library list; pure, so it can be tested without a browser.
import type { FamilyRow, LibrarySession, ProjectGroup } from "./library-types";

/**
 * Groups by machine (an archive's library) and header cwd (pi's folder name is a lossy encoding of it), keeping the
 * input's order inside and between groups. A file without a readable header joins the cwd of its folder's other
 * sessions on its machine.
 */
export function groupByProject(sessions: readonly LibrarySession[]): ProjectGroup[] {
  const folderOf = (session: LibrarySession) => `${session.machine ?? ""}\u0000${session.project}`;
  const folderCwd = new Map<string, string>();
  for (const session of sessions) if (session.cwd && session.project && !folderCwd.has(folderOf(session))) folderCwd.set(folderOf(session), session.cwd);
  const groups = new Map<string, ProjectGroup>();
  for (const session of sessions) {
    const cwd = session.cwd ?? folderCwd.get(folderOf(session)) ?? null;
    const place = cwd ?? (session.project || "(top level)");
    const key = session.machine === undefined ? place : `${session.machine}\u0000${place}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, cwd, project: session.project, sessions: [], rows: [] };
      if (session.machine !== undefined) group.machine = session.machine;
      groups.set(key, group);
    }
    group.sessions.push(session);
  }
  for (const group of groups.values()) group.rows = familyRows(group.sessions);
  return [...groups.values()];
}

const activity = (session: LibrarySession) => {
  const t = session.timestamp ? Date.parse(session.timestamp) : NaN;
  return Number.isNaN(t) ? Date.parse(session.mtime) : t;
};

/**
 * Sessions as family trees: a fork right under its source when both are listed, forks by newest activity (their
 * own forks' included), trees in that order too; ties keep the input's order. A fork whose source is not listed
 * (another project, filtered out, gone) heads a tree of its own.
 */
export function familyRows(sessions: readonly LibrarySession[]): FamilyRow[] {
  const listed = new Set(sessions.map((s) => s.path));
  const forks = new Map<string, LibrarySession[]>();
  const heads: LibrarySession[] = [];
  for (const session of sessions) {
    const source = session.forkOf?.path;
    if (source !== undefined && listed.has(source) && source !== session.path) {
      const list = forks.get(source);
      if (list) list.push(session);
      else forks.set(source, [session]);
    } else heads.push(session);
  }
  const latest = new Map<string, number>();
  const latestOf = (session: LibrarySession): number => {
    let t = latest.get(session.path);
    if (t !== undefined) return t;
    latest.set(session.path, (t = activity(session))); // set first: a loop of links ends here
    for (const fork of forks.get(session.path) ?? []) t = Math.max(t, latestOf(fork));
    latest.set(session.path, t);
    return t;
  };
  const order = (list: LibrarySession[]) => list.map((s, i) => ({ s, i, t: latestOf(s) })).sort((a, b) => b.t - a.t || a.i - b.i);
  const rows: FamilyRow[] = [];
  const seen = new Set<string>();
  const walk = (session: LibrarySession, depth: number) => {
    if (seen.has(session.path)) return;
    seen.add(session.path);
    rows.push({ session, depth });
    for (const { s } of order(forks.get(session.path) ?? [])) walk(s, depth + 1);
  };
  for (const { s } of order(heads)) walk(s, 0);
  // sessions only reachable through a loop of links (the library breaks loops, a hand-made list may not)
  for (const session of sessions) walk(session, 0);
  return rows;
}

/** The machines of an archive's library, by name (none for a directory's). */
export function machinesOf(sessions: readonly LibrarySession[]): string[] {
  return [...new Set(sessions.flatMap((session) => (session.machine === undefined ? [] : [session.machine])))].sort();
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

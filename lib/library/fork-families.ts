// Which session each fork came from, across a library, and the families that makes: a source and its forks,
// forks of forks included. A fork's header names its source by path (`parentSession`, a v1 `branchedFrom`, a v4
// `legacyParentSessionPath`) or by id (a v4 `parentSessionId`); paths break when a library is moved, copied
// to another machine or shared, so a path that names no file here is tried again by the session id pi puts in
// every file name. Pure: paths are compared as text.

/** What a fork's header says about its source. */
export interface ForkSourceRef {
  /** the source file's path as the header gives it */
  path: string | null;
  /** the source's session id (v4) */
  sessionId: string | null;
}

export interface FamilyMember {
  /** library path: relative to the sessions directory, "/"-separated */
  file: string;
  /** where the file is on disk, as a fork written on this machine names it */
  absolutePath: string;
  /**
   * the machine it is on, in an archive of several: a fork's header path names a file of its own machine (two
   * machines often have the same home directory), so paths match within a machine; session ids match across
   */
  machine?: string;
  /** the header's session id */
  sessionId: string | null;
  /** header timestamp, else file time (ISO): families list newest first */
  time: string;
  source: ForkSourceRef | null;
}

/** How a fork's source was found: its path, the session id in the path's file name, or the header's session id. */
export type SourceMatch = "path" | "file-name" | "session-id";

export interface ResolvedSource {
  file: string;
  by: SourceMatch;
}

export interface Families {
  /** a fork's source in the library */
  sourceOf: ReadonlyMap<string, ResolvedSource>;
  /** a file's forks in the library, newest first */
  forksOf: ReadonlyMap<string, readonly string[]>;
  /** forks whose source is not in the library (deleted, or never copied here), with what their header names */
  missingSource: ReadonlyMap<string, ForkSourceRef>;
  /** forks whose source link would close a loop (a hand-edited or hostile header): they head their family */
  cycles: ReadonlySet<string>;
  /** families by their first file (a session that is no fork of one here), newest activity first */
  roots: readonly string[];
  /** the first file of a file's family */
  rootOf(file: string): string;
}

/** A path compared as text: "\" as "/", no doubled or trailing separators, "." and ".." resolved. */
export function comparablePath(p: string): string {
  const absolute = p.startsWith("/") || p.startsWith("\\");
  const out: string[] = [];
  for (const part of p.replaceAll("\\", "/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push(part);
    } else out.push(part);
  }
  return (absolute ? "/" : "") + out.join("/");
}

/** The session id in pi's file name `<timestamp>_<id>.jsonl`, or null. */
export function sessionIdOfFileName(p: string): string | null {
  const name = p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);
  const match = /^[^_]+_(.+)\.jsonl$/.exec(name);
  return match ? match[1]! : null;
}

const pathKey = (machine: string | undefined, p: string) => `${machine ?? ""}\u0000${comparablePath(p)}`;

const byTimeThenFile = (a: FamilyMember, b: FamilyMember) => a.time.localeCompare(b.time) || a.file.localeCompare(b.file);

export function resolveFamilies(members: readonly FamilyMember[]): Families {
  const byPath = new Map<string, FamilyMember>();
  const byId = new Map<string, FamilyMember[]>();
  const byFile = new Map<string, FamilyMember>();
  for (const member of members) {
    byFile.set(member.file, member);
    byPath.set(pathKey(member.machine, member.absolutePath), member);
    if (member.sessionId !== null) {
      const list = byId.get(member.sessionId);
      if (list) list.push(member);
      else byId.set(member.sessionId, [member]);
    }
  }
  // the same session id in several files (a copy): the oldest is the one forks were made from
  for (const list of byId.values()) list.sort(byTimeThenFile);

  const found = (fork: FamilyMember, candidates: FamilyMember[] | undefined) => candidates?.find((c) => c !== fork);
  const sourceOf = new Map<string, ResolvedSource>();
  const missingSource = new Map<string, ForkSourceRef>();
  for (const member of members) {
    const ref = member.source;
    if (!ref || (ref.path === null && ref.sessionId === null)) continue;
    let source: ResolvedSource | null = null;
    if (ref.path !== null) {
      const exact = byPath.get(pathKey(member.machine, ref.path));
      if (exact && exact !== member) source = { file: exact.file, by: "path" };
      else {
        const id = sessionIdOfFileName(ref.path);
        const named = id === null ? undefined : found(member, byId.get(id));
        if (named) source = { file: named.file, by: "file-name" };
      }
    }
    if (!source && ref.sessionId !== null) {
      const named = found(member, byId.get(ref.sessionId));
      if (named) source = { file: named.file, by: "session-id" };
    }
    if (source) sourceOf.set(member.file, source);
    else missingSource.set(member.file, ref);
  }

  // a loop of links has no first file: the oldest file of the loop heads it
  const cycles = new Set<string>();
  const state = new Map<string, "walking" | "done">();
  for (const member of members) {
    const walk: string[] = [];
    let file: string | undefined = member.file;
    while (file !== undefined && state.get(file) === undefined) {
      state.set(file, "walking");
      walk.push(file);
      file = sourceOf.get(file)?.file;
    }
    if (file !== undefined && state.get(file) === "walking") {
      const loop = walk.slice(walk.indexOf(file)).map((f) => byFile.get(f)!);
      const head = loop.sort(byTimeThenFile)[0]!;
      sourceOf.delete(head.file);
      cycles.add(head.file);
    }
    for (const f of walk) state.set(f, "done");
  }

  const forks = new Map<string, FamilyMember[]>();
  for (const [file, source] of sourceOf) {
    const list = forks.get(source.file);
    if (list) list.push(byFile.get(file)!);
    else forks.set(source.file, [byFile.get(file)!]);
  }
  // newest activity of a file and its forks, forks of forks included: a file is done once its forks are, walked
  // with a stack of its own (a chain of forks as long as a library is, written by hand, overflowed the call stack)
  const latest = new Map<string, string>();
  for (const member of members) {
    const stack: [FamilyMember, boolean][] = [[member, false]];
    while (stack.length) {
      const [at, forksDone] = stack.pop()!;
      if (latest.has(at.file)) continue;
      const below = forks.get(at.file) ?? [];
      if (!forksDone) {
        stack.push([at, true]);
        for (const fork of below) if (!latest.has(fork.file)) stack.push([fork, false]);
        continue;
      }
      let time = at.time;
      for (const fork of below) if (latest.get(fork.file)! > time) time = latest.get(fork.file)!;
      latest.set(at.file, time);
    }
  }
  const latestOf = (member: FamilyMember): string => latest.get(member.file)!;
  const newestFirst = (a: FamilyMember, b: FamilyMember) => latestOf(b).localeCompare(latestOf(a)) || a.file.localeCompare(b.file);
  const forksOf = new Map<string, string[]>();
  for (const [file, list] of forks)
    forksOf.set(
      file,
      list.sort(newestFirst).map((m) => m.file),
    );
  const roots = members
    .filter((m) => !sourceOf.has(m.file))
    .sort(newestFirst)
    .map((m) => m.file);

  const rootOf = (file: string): string => {
    let at = file;
    for (let source = sourceOf.get(at); source; source = sourceOf.get(at)) at = source.file;
    return at;
  };
  return { sourceOf, forksOf, missingSource, cycles, roots, rootOf };
}

// The CLI's commands over a whole sessions directory rather than one file:
//   family FILE [--dir DIR] [--json]: the fork family FILE belongs to, from its first file down.
// Paths in the output are relative to the sessions directory, as the HTTP API gives them.
import { statSync } from "node:fs";
import path from "node:path";
import { findSessionFiles } from "@/lib/server/list-sessions";
import { forkInfo, libraryFamilies, type LibraryFamilies } from "@/lib/server/library-families";
import { sessionsDir } from "@/lib/server/sessions-dir";

export const LIBRARY_COMMANDS = ["family"] as const;

export const LIBRARY_USAGE = `family FILE [--dir DIR] [--json]  the fork family FILE belongs to: {root, forks: [{file, fromEntryId, forks}]}
                          (DIR: the sessions directory, PI_SESSIONS_DIR or ~/.pi/agent/sessions by default)`;

export class LibraryCommandError extends Error {}

interface LibraryArgs {
  command: (typeof LIBRARY_COMMANDS)[number];
  positional: string[];
  dir: string;
}

export function isLibraryCommand(argv: readonly string[]): boolean {
  return (LIBRARY_COMMANDS as readonly string[]).includes(argv[0] ?? "");
}

function parseLibraryArgs(argv: readonly string[]): LibraryArgs {
  const [command, ...rest] = argv;
  const positional: string[] = [];
  let dir = sessionsDir();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === "--dir") {
      const v = rest[++i];
      if (v === undefined) throw new LibraryCommandError(`--dir needs a value\n${LIBRARY_USAGE}`);
      dir = path.resolve(v);
    } else if (arg === "--json") {
      // output is always JSON; accepted for symmetry
    } else if (arg.startsWith("-")) throw new LibraryCommandError(`unknown option ${arg}\n${LIBRARY_USAGE}`);
    else positional.push(arg);
  }
  return { command: command as LibraryArgs["command"], positional, dir };
}

export async function runLibraryCommand(argv: readonly string[]): Promise<string> {
  const args = parseLibraryArgs(argv);
  switch (args.command) {
    case "family":
      return JSON.stringify(await family(args), null, 2);
  }
}

export interface FamilyNode {
  file: string;
  /** the source's entry the fork left it at (its last inherited entry); null when it copied nothing */
  fromEntryId: string | null;
  forks: FamilyNode[];
}

export interface FamilyJson {
  root: string;
  forks: FamilyNode[];
  /** the root is a fork whose source this directory does not hold: what its header names */
  missingSource?: { path: string | null; sessionId: string | null };
}

async function family(args: LibraryArgs): Promise<FamilyJson> {
  const [file] = args.positional;
  if (!file || args.positional.length > 1) throw new LibraryCommandError(`family takes one FILE\n${LIBRARY_USAGE}`);
  const rel = libraryPath(args.dir, file);
  const library = await libraryFamilies(args.dir, await findSessionFiles(args.dir));
  const info = await forkInfo(library, rel);
  if (!info) throw new LibraryCommandError(`${file}:0: error: not a session file of ${args.dir}`);
  const missing = library.families.missingSource.get(info.root);
  return { root: info.root, forks: await forksOf(library, info.root), ...(missing ? { missingSource: missing } : {}) };
}

async function forksOf(library: LibraryFamilies, file: string): Promise<FamilyNode[]> {
  const out: FamilyNode[] = [];
  for (const fork of library.families.forksOf.get(file) ?? []) {
    const info = (await forkInfo(library, fork))!;
    out.push({ file: fork, fromEntryId: info.source?.fromEntryId ?? null, forks: await forksOf(library, fork) });
  }
  return out;
}

/** FILE as the library names it: relative to DIR, "/"-separated; a file outside DIR is refused. */
function libraryPath(dir: string, file: string): string {
  const absolute = path.resolve(file);
  try {
    statSync(absolute);
  } catch {
    throw new LibraryCommandError(`${file}:0: error: cannot read the file (does it exist?)`);
  }
  const rel = path.relative(dir, absolute);
  if (rel.startsWith("..") || path.isAbsolute(rel)) throw new LibraryCommandError(`${file}:0: error: not inside the sessions directory ${dir}`);
  return rel.split(path.sep).join("/");
}

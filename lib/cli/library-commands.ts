// The CLI's commands over a whole sessions directory rather than one file:
//   family FILE [--dir DIR] [--json]: the fork family FILE belongs to, from its first file down;
//   search QUERY [--dir DIR] [filters] [--json]: entries of every session that hold the query's terms;
//   usage [--dir DIR] [--by day|week|model|project|session] [--since DATE] [--json]: tokens and cost over time.
// Paths in the output are relative to the sessions directory, as the HTTP API gives them.
import { statSync } from "node:fs";
import path from "node:path";
import { findSessionFiles } from "@/lib/server/list-sessions";
import { forkInfo, libraryFamilies, type LibraryFamilies } from "@/lib/server/library-families";
import { searchLibrary } from "@/lib/server/library-search";
import { libraryUsage, parseUsageSince } from "@/lib/server/library-usage";
import type { LibrarySearchHit, SearchFilters } from "@/lib/server/search-index";
import { sessionsDir } from "@/lib/server/sessions-dir";
import { parseSince, totalRow, USAGE_GROUPINGS, type UsageGrouping, type UsageRow } from "@/lib/library/usage";

export const LIBRARY_COMMANDS = ["family", "usage", "search"] as const;

export const LIBRARY_USAGE = `search QUERY [--dir DIR] [--project CWD] [--since DATE] [--until DATE] [--role R] [--tool T] [--model M] [--active] [--limit N] [--json]
                          entries of every session holding all the query's words and "phrases" (words match
                          whole words, the last as a prefix): [{file, entryId, onActivePath, snippet, score, alsoIn, role, time}]
  family FILE [--dir DIR] [--json]  the fork family FILE belongs to: {root, forks: [{file, fromEntryId, forks}]}
  usage [--dir DIR] [--by day|week|model|project|session] [--since YYYY-MM-DD] [--json]  tokens and cost (what pi's
                          /session counts; an entry a fork copied counts once, in its source): rows of
                          {key, input, output, cacheRead, cacheWrite, cost, calls}; a table without --json
                          (DIR: the sessions directory, PI_SESSIONS_DIR or ~/.pi/agent/sessions by default)`;

export class LibraryCommandError extends Error {}

interface LibraryArgs {
  command: (typeof LIBRARY_COMMANDS)[number];
  positional: string[];
  dir: string;
  json: boolean;
  by: UsageGrouping;
  since: number | null;
  filters: SearchFilters;
  limit: number;
}

export function isLibraryCommand(argv: readonly string[]): boolean {
  return (LIBRARY_COMMANDS as readonly string[]).includes(argv[0] ?? "");
}

function parseLibraryArgs(argv: readonly string[]): LibraryArgs {
  const [command, ...rest] = argv;
  const positional: string[] = [];
  let dir = sessionsDir();
  let json = false;
  let by: UsageGrouping = "day";
  let since: number | null = null;
  const filters: SearchFilters = {};
  let limit = 50;
  const date = (v: string) => {
    const t = parseSince(v);
    if (t === null) throw new LibraryCommandError(`a date is YYYY-MM-DD, not ${v}\n${LIBRARY_USAGE}`);
    return t;
  };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new LibraryCommandError(`${arg} needs a value\n${LIBRARY_USAGE}`);
      return v;
    };
    if (arg === "--dir") dir = path.resolve(value());
    else if (arg === "--json") json = true;
    else if (arg === "--by") {
      const v = value();
      if (!(USAGE_GROUPINGS as readonly string[]).includes(v)) throw new LibraryCommandError(`--by must be ${USAGE_GROUPINGS.join(", ")}\n${LIBRARY_USAGE}`);
      by = v as UsageGrouping;
    } else if (arg === "--since") {
      const v = value();
      // usage is summed by day: its since is a day
      since = command === "usage" ? parseUsageSince(v) : parseSince(v);
      if (since === null) throw new LibraryCommandError(`--since takes a date (YYYY-MM-DD), not ${v}\n${LIBRARY_USAGE}`);
      filters.from = since;
    } else if (arg === "--until") filters.to = date(value());
    else if (arg === "--project") filters.project = value();
    else if (arg === "--role") filters.role = value();
    else if (arg === "--tool") filters.tool = value();
    else if (arg === "--model") filters.model = value();
    else if (arg === "--active") filters.activeOnly = true;
    else if (arg === "--limit") {
      const v = value();
      limit = Number(v);
      if (!/^\d+$/.test(v) || limit < 1) throw new LibraryCommandError(`--limit takes a whole number, not ${v}\n${LIBRARY_USAGE}`);
    } else if (arg.startsWith("-")) throw new LibraryCommandError(`unknown option ${arg}\n${LIBRARY_USAGE}`);
    else positional.push(arg);
  }
  return { command: command as LibraryArgs["command"], positional, dir, json, by, since, filters, limit };
}

export async function runLibraryCommand(argv: readonly string[]): Promise<string> {
  const args = parseLibraryArgs(argv);
  switch (args.command) {
    case "family":
      return JSON.stringify(await family(args), null, 2);
    case "search": {
      const query = args.positional.join(" ");
      if (!query.trim()) throw new LibraryCommandError(`search needs a QUERY\n${LIBRARY_USAGE}`);
      const progress = process.stderr.isTTY
        ? ({ done, total }: { done: number; total: number }) => process.stderr.write(`\rindexing ${done}/${total} sessions`)
        : undefined;
      const { hits, report } = await searchLibrary(args.dir, await findSessionFiles(args.dir), query, args.filters, {
        limit: args.limit,
        onProgress: progress,
      });
      if (progress) process.stderr.write("\n");
      // an unreadable line is not searched: said by file and line, as every command says a problem
      for (const bad of report.unreadable)
        process.stderr.write(`${path.join(args.dir, bad.file)}${bad.line ? `:${bad.line}` : ""}: warning: not indexed: ${bad.message}\n`);
      return args.json ? JSON.stringify(hits, null, 2) : hitsText(hits);
    }
    case "usage": {
      if (args.positional.length) throw new LibraryCommandError(`usage takes no FILE\n${LIBRARY_USAGE}`);
      const rows = await libraryUsage(args.dir, await findSessionFiles(args.dir), args.by, args.since);
      return args.json ? JSON.stringify(rows, null, 2) : usageTable(rows, args.by);
    }
  }
}

/** Hits for the terminal: the session file and entry, whether it is on the active path, the words around it. */
function hitsText(hits: readonly LibrarySearchHit[]): string {
  if (hits.length === 0) return "no hits";
  return hits
    .map(
      (hit) =>
        `${hit.file}  ${hit.entryId}${hit.onActivePath ? "" : "  (off the active path)"}${hit.alsoIn ? `  (also in ${hit.alsoIn} ${hit.alsoIn === 1 ? "fork" : "forks"})` : ""}\n    ${hit.snippet}`,
    )
    .join("\n");
}

/** A table for the terminal: the grouping's key, then tokens and cost, and a total line. */
function usageTable(rows: readonly UsageRow[], by: UsageGrouping): string {
  const total = totalRow(rows);
  const n = (v: number) => v.toLocaleString("en-US");
  const lines = [
    [by, "input", "output", "cache read", "cache write", "cost", "calls"],
    ...[...rows, total].map((r) => [r.key, n(r.input), n(r.output), n(r.cacheRead), n(r.cacheWrite), `$${r.cost.toFixed(2)}`, n(r.calls)]),
  ];
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  return lines.map((l) => l.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ")).join("\n");
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

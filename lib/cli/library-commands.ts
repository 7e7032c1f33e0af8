// The CLI's commands over a whole sessions directory rather than one file:
//   family FILE [--dir DIR] [--json]: the fork family FILE belongs to, from its first file down;
//   search QUERY [--dir DIR] [filters] [--json]: entries of every session that hold the query's terms;
//   usage [--dir DIR] [--by day|week|model|project|machine|session] [--since DATE] [--json]: tokens and cost over time.
// Paths in the output are relative to the sessions directory, as the HTTP API gives them.
import { statSync } from "node:fs";
import path from "node:path";
import { parseParams, searchParams, usageParams, type ParamsResult } from "@/lib/library/library-params";
import { totalRow, type UsageGrouping, type UsageRow } from "@/lib/library/usage";
import { forkInfo, libraryFamilies, type LibraryFamilies } from "@/lib/server/library-families";
import { searchFilters, searchLibrary } from "@/lib/server/library-search";
import { libraryUsage } from "@/lib/server/library-usage";
import { findSessionFiles } from "@/lib/server/list-sessions";
import type { LibrarySearchHit } from "@/lib/library/search-api";
import type { IndexReport } from "@/lib/server/library-index/library-index";
import { sessionsDir } from "@/lib/server/sessions-dir";

export const LIBRARY_COMMANDS = ["family", "usage", "search"] as const;

export const LIBRARY_USAGE = `search QUERY [--dir DIR] [--project CWD] [--since DATE] [--until DATE] [--role R] [--tool T] [--model M] [--active] [--limit N] [--json]
                          entries of every session holding all the query's words and "phrases" (words match
                          whole words, the last as a prefix; N from 1 to 500, 50 by default):
                          [{file, entryId, onActivePath, snippet, score, alsoIn, role, time}]
  family FILE [--dir DIR] [--json]  the fork family FILE belongs to: {root, forks: [{file, fromEntryId, forks}]}
  usage [--dir DIR] [--by day|week|model|project|machine|session] [--since YYYY-MM-DD] [--json]  tokens and cost (what pi's
                          /session counts; an entry a fork copied counts once, in its source): rows of
                          {key, input, output, cacheRead, cacheWrite, cost, calls}; a table without --json
                          (DIR: the sessions directory, PI_SESSIONS_DIR or ~/.pi/agent/sessions by default;
                          DATE: YYYY-MM-DD)`;

export class LibraryCommandError extends Error {}

type Command = (typeof LIBRARY_COMMANDS)[number];

/** Each command's options that take a value, by the parameter of its HTTP route they are (library-params.ts). */
const VALUE_OPTIONS: Record<Command, readonly string[]> = {
  search: ["project", "since", "until", "role", "tool", "model", "limit"],
  usage: ["by", "since"],
  family: [],
};

interface LibraryArgs {
  command: Command;
  positional: string[];
  dir: string;
  json: boolean;
  /** the options as the HTTP route's parameters: checked by the same schema */
  params: [string, string][];
}

export function isLibraryCommand(argv: readonly string[]): boolean {
  return (LIBRARY_COMMANDS as readonly string[]).includes(argv[0] ?? "");
}

function parseLibraryArgs(argv: readonly string[]): LibraryArgs {
  const [command, ...rest] = argv as [Command, ...string[]];
  const positional: string[] = [];
  const params: [string, string][] = [];
  let dir = sessionsDir();
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new LibraryCommandError(`${arg} needs a value\n${LIBRARY_USAGE}`);
      return v;
    };
    if (arg === "--dir") dir = path.resolve(value());
    else if (arg === "--json") json = true;
    else if (arg === "--active" && command === "search") params.push(["active", "1"]);
    else if (arg.startsWith("--") && VALUE_OPTIONS[command].includes(arg.slice(2))) params.push([arg.slice(2), value()]);
    else if (arg.startsWith("-")) throw new LibraryCommandError(`unknown option ${arg} for ${command}\n${LIBRARY_USAGE}`);
    else positional.push(arg);
  }
  return { command, positional, dir, json, params };
}

/** The options checked as the route checks its parameters; a refusal names the option ("--limit takes …, not 0"). */
function checked<T>(result: ParamsResult<T>): T {
  if (result.ok) return result.value;
  const option = result.param === "q" ? "QUERY" : `--${result.param}`;
  const not = result.given === undefined || result.param === "q" ? "" : `, not ${result.given}`;
  throw new LibraryCommandError(`${option}${result.error.slice(result.param.length)}${not}\n${LIBRARY_USAGE}`);
}

/** Names every line the index could not read (or doubts), by file and line, as every command names a problem. */
function warnUnreadable(dir: string, report: IndexReport): void {
  for (const bad of report.unreadable)
    process.stderr.write(`${path.join(dir, bad.file)}${bad.line ? `:${bad.line}` : ""}: warning: ${bad.indexed ? "" : "not indexed: "}${bad.message}\n`);
}

export async function runLibraryCommand(argv: readonly string[]): Promise<string> {
  const args = parseLibraryArgs(argv);
  switch (args.command) {
    case "family":
      return JSON.stringify(await family(args), null, 2);
    case "search": {
      const query = args.positional.join(" ");
      if (!query.trim()) throw new LibraryCommandError(`search needs a QUERY\n${LIBRARY_USAGE}`);
      const { q, limit, ...filters } = checked(parseParams(searchParams, [["q", query], ...args.params]));
      const progress = process.stderr.isTTY
        ? ({ done, total }: { done: number; total: number }) => process.stderr.write(`\rindexing ${done}/${total} sessions`)
        : undefined;
      const { hits } = await searchLibrary(args.dir, await findSessionFiles(args.dir), q, searchFilters(filters), {
        limit,
        onProgress: progress,
        onReport: (report) => {
          if (progress) process.stderr.write("\n");
          // an unreadable line is not searched: said by file and line
          warnUnreadable(args.dir, report);
        },
      });
      return args.json ? JSON.stringify(hits, null, 2) : hitsText(hits);
    }
    case "usage": {
      if (args.positional.length) throw new LibraryCommandError(`usage takes no FILE\n${LIBRARY_USAGE}`);
      const { by, since } = checked(parseParams(usageParams, args.params));
      const rows = await libraryUsage(args.dir, await findSessionFiles(args.dir), by, since ?? null);
      return args.json ? JSON.stringify(rows, null, 2) : usageTable(rows, by);
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

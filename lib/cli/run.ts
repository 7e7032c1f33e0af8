/**
 * The command line over the session library:
 *   npm run --silent cli -- info|branch|context|llm|compaction|branch-summary|fork|share FILE [--leaf ID|null] [--reader auto|ca|hx|ca-0.86|ca-0.87|v4] [-o OUT]
 * Results go to stdout as JSON (fork: JSONL); problems go to stderr as
 * "FILE:LINE: message" with exit code 1, and then nothing is printed to stdout.
 */
import { statSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  BRANCH_SUMMARY_FALLBACK_WINDOW,
  BRANCH_SUMMARY_RESERVE,
  DEFAULT_COMPACTION_SETTINGS,
  formatDiagnostic,
  modelView,
  RULE_SETS,
  SessionQueryError,
  wouldCompact,
  type RuleSetId,
  type Session,
} from "@/lib/session";
import { loadCatalogue, modelOfContext } from "@/lib/models/model-catalogue";
import { readSessionIndex } from "@/lib/server/read-session";
import { isLibraryCommand, LIBRARY_USAGE, LibraryCommandError, runLibraryCommand } from "./library-commands";
import { PUSH_USAGE, PushCommandError, runPush } from "./push-command";
import { defaultShareArgs, runShare, SHARE_USAGE, takeShareOption, type ShareArgs } from "./share-command";

export const USAGE = `usage: cli <info|branch|context|llm|compaction|branch-summary|fork|share> FILE [--leaf ID|null] [--reader auto|ca|hx|ca-0.86|ca-0.87|v4] [-o OUT]
       cli search QUERY [--dir DIR] | cli family FILE [--dir DIR] | cli usage [--dir DIR] [--by …] [--since DATE] [--json]
       cli push [DIR] --to URL [--machine NAME] [--watch]

  info FILE               header, name, entry count, leaf, labels, diagnostics (JSON)
  branch FILE --leaf ID   ids root → ID (JSON array)
  context FILE [--leaf ID]  what the model sees with ID as leaf (default: the file's leaf)
  llm FILE [--leaf ID] [--reserve N] [--window N]  what the model is sent there (convertToLlm), pi's token
                          estimate, the model's context window (pi's catalogue; --window for one it lacks)
                          and whether pi would compact (reserve: ${DEFAULT_COMPACTION_SETTINGS.reserveTokens} by default)
  compaction FILE [--leaf ID] [--keep N]  what pi's compaction would prepare there (keeping about N recent
                          tokens, ${DEFAULT_COMPACTION_SETTINGS.keepRecentTokens} by default): where it cuts, what it summarizes; null: nothing
  branch-summary FILE --from L --to T [--budget N]  what pi's /tree from L to T would summarize: the entries,
                          their common ancestor, the messages within the budget (pi's: the model's window − ${BRANCH_SUMMARY_RESERVE}),
                          their tokens and file lists
  fork FILE --leaf ID [--fork ca|hx] [--position at|before] [-o OUT]  the session file pi's fork at ID would write
                          (JSONL): by the rules the file is read by, or --fork ca (createBranchedSession, which
                          \`pi --session FILE\` resumes) / hx (the harness's repo.fork, "at" or "before" a user message)
  ${SHARE_USAGE}
  ${LIBRARY_USAGE}
  ${PUSH_USAGE}`;

class CliError extends Error {}

interface Args {
  command: string;
  file: string;
  leaf: string | null | undefined;
  out: string | undefined;
  reader: "auto" | RuleSetId;
  share: ShareArgs;
  reserve: number;
  window: number | null;
  keep: number;
  forkWith: "ca" | "hx" | null;
  position: "at" | "before";
  from: string | null | undefined;
  to: string | undefined;
  budget: number | null;
}

function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  let leaf: string | null | undefined;
  let out: string | undefined;
  let reader: Args["reader"] = "auto";
  let reserve = DEFAULT_COMPACTION_SETTINGS.reserveTokens;
  let window: number | null = null;
  let keep = DEFAULT_COMPACTION_SETTINGS.keepRecentTokens;
  let forkWith: Args["forkWith"] = null;
  let position: Args["position"] = "at";
  let from: string | null | undefined;
  let to: string | undefined;
  let budget: number | null = null;
  const share = defaultShareArgs();
  const fail = (message: string): never => {
    throw new CliError(`${message}\n${USAGE}`);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const used = takeShareOption(argv, i, share, fail);
    if (used > 0) {
      i += used - 1;
      continue;
    }
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new CliError(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    if (arg === "--leaf") {
      const v = value();
      leaf = v === "null" ? null : v;
    } else if (arg === "-o" || arg === "--out") out = value();
    else if (arg === "--reader") {
      const v = value();
      if (v !== "auto" && !Object.hasOwn(RULE_SETS, v)) throw new CliError(`--reader must be auto, ${Object.keys(RULE_SETS).join(", ")}\n${USAGE}`);
      reader = v as Args["reader"];
    } else if (arg === "--fork") {
      const v = value();
      if (v !== "ca" && v !== "hx") throw new CliError(`--fork must be ca or hx\n${USAGE}`);
      forkWith = v;
    } else if (arg === "--position") {
      const v = value();
      if (v !== "at" && v !== "before") throw new CliError(`--position must be at or before\n${USAGE}`);
      position = v;
    } else if (arg === "--from") {
      const v = value();
      from = v === "null" ? null : v;
    } else if (arg === "--to") to = value();
    else if (arg === "--reserve" || arg === "--window" || arg === "--budget" || arg === "--keep") {
      const v = value();
      const n = Number(v);
      if (!/^\d+$/.test(v) || !Number.isSafeInteger(n)) throw new CliError(`${arg} takes a whole number of tokens, not ${v}\n${USAGE}`);
      if (arg === "--reserve") reserve = n;
      else if (arg === "--window") window = n;
      else if (arg === "--keep") keep = n;
      else budget = n;
    } else if (arg === "--json") {
      // output is always JSON; accepted for symmetry
    } else if (arg === "-h" || arg === "--help") throw new CliError(USAGE);
    else if (arg.startsWith("-")) throw new CliError(`unknown option ${arg}\n${USAGE}`);
    else positional.push(arg);
  }
  const [command, file] = positional;
  if (!command || !file || positional.length > 2) throw new CliError(USAGE);
  if (!(CLI_COMMANDS as readonly string[]).includes(command)) throw new CliError(`unknown command ${command}\n${USAGE}`);
  return { command, file, leaf, out, reader, share, reserve, window, keep, forkWith, position, from, to, budget };
}

/** The line of an entry, so that query errors can name where the problem is. */
function where(session: Session, file: string, id: string | null | undefined): string {
  const line = id ? session.tree.node(id)?.line : undefined;
  return `${file}:${line ?? 0}`;
}

/** A file pi refuses to open is bad input: say why, by line. */
function assertReadable(session: Session, file: string): void {
  // a v4 log is no coding-agent file, but pi-agent-core reads it: so do the v4 rules
  if (!session.parser.caRefused || (session.reader === "v4" && session.v4?.refusal === null)) return;
  const fatal = session.diagnostics().filter((d) => d.severity === "error");
  throw new CliError(fatal.map((d) => formatDiagnostic(file, d)).join("\n") || `${file}:0: error: not a pi session`);
}

function labelsJson(session: Session): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [target, state] of session.labels()) {
    out[target] = session.tree.get(target)
      ? { label: state.label, timestamp: state.timestamp }
      : { label: state.label, timestamp: state.timestamp, targetMissing: true };
  }
  return out;
}

async function run(argv: string[]): Promise<string> {
  const args = parseArgs(argv);
  let stat;
  try {
    stat = statSync(args.file);
  } catch {
    throw new CliError(`${args.file}:0: error: cannot read the file (does it exist?)`);
  }
  if (!stat.isFile()) throw new CliError(`${args.file}:0: error: not a regular file`);
  // indexed without its content, which is read from the file by byte range when an answer needs it: a session
  // larger than memory is answered too
  const indexed = await readSessionIndex(args.file, { reader: args.reader, checkSchema: args.command === "info" });
  try {
    return await answer(args, indexed.session);
  } finally {
    indexed.close();
  }
}

async function answer(args: Args, session: Session): Promise<string> {
  // a whole file is shared as it is, problems included: the viewer that opens it reports them by line
  if (args.command !== "share" || args.share.scope !== "session") assertReadable(session, args.file);
  const leafArg = args.leaf;
  const needLeaf = () => {
    if (leafArg === undefined) throw new CliError(`${args.command} needs --leaf ID\n${USAGE}`);
    if (leafArg !== null && !session.tree.get(leafArg)) throw new CliError(`${args.file}:0: error: no entry with id ${leafArg} in the file`);
    return leafArg;
  };
  try {
    switch (args.command) {
      case "info":
        return JSON.stringify(
          {
            header: session.header,
            name: session.name,
            entryCount: session.tree.entryCount,
            leafId: session.leafId,
            reader: session.reader,
            labels: labelsJson(session),
            diagnostics: session.diagnostics(),
          },
          null,
          2,
        );
      case "branch": {
        const leaf = needLeaf();
        return JSON.stringify(leaf === null ? [] : session.branch(leaf).map((e) => e.id));
      }
      case "context": {
        const leaf = leafArg === undefined ? session.leafId : needLeaf();
        const context = session.context(leaf);
        const out: Record<string, unknown> = {
          entryIds: context.entryIds,
          messages: context.messages.map((m) => m.message),
          model: context.model,
          thinkingLevel: context.thinkingLevel,
        };
        if (session.rules.tracksActiveTools) out.activeToolNames = context.activeToolNames ?? null;
        return JSON.stringify(out, null, 2);
      }
      case "llm": {
        const leaf = leafArg === undefined ? session.leafId : needLeaf();
        const view = modelView(session, leaf);
        const model = view.context.model;
        const known = modelOfContext(await loadCatalogue(), model);
        const contextWindow = args.window ?? known?.contextWindow ?? null;
        const settings = { ...DEFAULT_COMPACTION_SETTINGS, reserveTokens: args.reserve };
        const t = view.tokens;
        return JSON.stringify(
          {
            messages: view.llm.map((m) => m.message),
            sources: view.llm.map((m) => ({ entryId: m.entryId, from: m.from })),
            tokens: t && { usage: t.usageTokens, trailing: t.trailingTokens, total: t.tokens, lastUsageIndex: t.lastUsageIndex },
            ...(view.tokensError ? { tokensError: view.tokensError } : {}),
            model: model && { provider: model.provider, id: model.modelId, name: known?.name ?? null, inCatalogue: known !== null },
            contextWindow,
            reserveTokens: settings.reserveTokens,
            shouldCompact: t ? wouldCompact(t.tokens, contextWindow, settings) : null,
          },
          null,
          2,
        );
      }
      case "compaction": {
        const leaf = leafArg === undefined ? session.leafId : needLeaf();
        if (leaf === null) return "null";
        const preview = session.compaction(leaf, args.keep);
        if (!preview) return "null";
        return JSON.stringify(
          {
            firstKeptEntryId: preview.firstKeptEntryId,
            summarizeIds: preview.summarizeIds,
            turnPrefixIds: preview.turnPrefixIds,
            isSplitTurn: preview.isSplitTurn,
            tokensBefore: preview.tokensBefore,
            readFiles: preview.readFiles,
            modifiedFiles: preview.modifiedFiles,
            previousSummary: preview.previousSummary,
            keepRecentTokens: args.keep,
            ...(preview.retainedTail ? { retainedTailLength: preview.retainedTail.length } : {}),
          },
          null,
          2,
        );
      }
      case "branch-summary": {
        if (args.from === undefined || args.to === undefined) throw new CliError(`branch-summary needs --from L (the old leaf, or null) and --to T\n${USAGE}`);
        for (const id of [args.from, args.to])
          if (id !== null && !session.tree.get(id)) throw new CliError(`${args.file}:0: error: no entry with id ${id} in the file`);
        // pi's budget: the window of the model in force at the old leaf (128,000 when it names none) less the reserve
        let budget = args.budget;
        if (budget === null) {
          const known = args.from === null ? null : modelOfContext(await loadCatalogue(), session.context(args.from).model);
          budget = (args.window ?? known?.contextWindow ?? BRANCH_SUMMARY_FALLBACK_WINDOW) - BRANCH_SUMMARY_RESERVE;
        }
        const preview = session.branchSummary(args.from, args.to, budget);
        return JSON.stringify(
          {
            entryIds: preview.entryIds,
            tokens: preview.tokens,
            commonAncestorId: preview.commonAncestorId,
            budget,
            messages: preview.messages.map((m) => m.message),
            messageEntryIds: preview.messages.map((m) => m.entryId),
            readFiles: preview.readFiles,
            modifiedFiles: preview.modifiedFiles,
          },
          null,
          2,
        );
      }
      case "fork": {
        const leaf = needLeaf();
        if (leaf === null) throw new CliError(`${args.file}:0: error: Entry null not found (pi cannot fork before the first entry)`);
        // a harness file forks as the harness does unless told otherwise; "before" is the harness's alone
        const reader = args.forkWith ?? session.reader;
        if (args.position === "before" && reader !== "hx" && reader !== "v4")
          throw new CliError(`--position before is the harness's fork (--fork hx)\n${USAGE}`);
        const fork = session.fork(leaf, { sourcePath: path.resolve(args.file), position: args.position }, reader);
        if (!args.out) return fork.text.replace(/\n$/, "");
        let target = args.out;
        try {
          if (statSync(target).isDirectory()) target = path.join(target, fork.fileName);
        } catch {
          // a new file
        }
        writeFileSync(target, fork.text, { flag: "wx" });
        process.stderr.write(`wrote ${target}\n`);
        return "";
      }
      case "share":
        if (leafArg !== undefined && leafArg !== null && !session.tree.get(leafArg))
          throw new CliError(`${args.file}:0: error: no entry with id ${leafArg} in the file`);
        return await runShare({
          file: args.file,
          session,
          leaf: leafArg,
          out: args.out,
          args: args.share,
          fail: (message) => {
            throw new CliError(message);
          },
        });
    }
  } catch (error) {
    if (error instanceof SessionQueryError) throw new CliError(`${where(session, args.file, leafArg ?? session.leafId)}: error: ${error.message}`);
    throw error;
  }
  throw new CliError(USAGE);
}

/** The CLI: results on stdout, problems on stderr; resolves with the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  try {
    if (argv[0] === "push") return await runPush(argv.slice(1));
    const out = isLibraryCommand(argv) ? await runLibraryCommand(argv) : await run(argv);
    if (out) process.stdout.write(out + "\n");
    return 0;
  } catch (error) {
    if (error instanceof CliError || error instanceof LibraryCommandError || error instanceof PushCommandError) process.stderr.write(error.message + "\n");
    else process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

export const CLI_COMMANDS = ["info", "branch", "context", "llm", "compaction", "branch-summary", "fork", "share"] as const;

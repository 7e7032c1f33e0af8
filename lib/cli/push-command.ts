// `push [DIR] --to URL [--machine NAME] [--watch]`: sends a machine's sessions to the archive (PostgreSQL), so a team
// reads every machine's sessions in one viewer. Output: progress on stderr, a summary on stdout.
import os from "node:os";
import path from "node:path";
import { archiveError, shownUrl } from "@/lib/server/archive/archive-error";
import { upgradeNotice } from "@/lib/server/archive/archive-schema";
import { machineId, openArchive } from "@/lib/server/archive/open-archive";
import { pushLibrary, type PushProgress, type PushReport } from "@/lib/server/archive/push-library";
import { watchLibrary } from "@/lib/server/archive/watch-library";
import { sessionsDir } from "@/lib/server/sessions-dir";

export const PUSH_USAGE = `push [DIR] --to URL [--machine NAME] [--watch]  send the sessions under DIR (default: pi's sessions directory)
                          to the archive at URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE, or PI_VIEWER_DATABASE_URL),
                          as machine NAME (default: this machine's host name). Only what changed is sent; --watch
                          keeps pushing each file shortly after it changes`;

export class PushCommandError extends Error {}

const MACHINE_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,99}$/u;

interface PushArgs {
  dir: string;
  url: string;
  machine: string;
  watch: boolean;
}

function parsePushArgs(argv: readonly string[], env: NodeJS.ProcessEnv): PushArgs {
  let dir: string | null = null;
  let url = env.PI_VIEWER_DATABASE_URL?.trim() || null;
  let machine = os.hostname().split(".")[0] || "localhost";
  let watch = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new PushCommandError(`${arg} needs a value\n${PUSH_USAGE}`);
      return v;
    };
    if (arg === "--to") url = value();
    else if (arg === "--machine") machine = value().trim();
    else if (arg === "--watch") watch = true;
    else if (arg.startsWith("-")) throw new PushCommandError(`unknown option ${arg} for push\n${PUSH_USAGE}`);
    else if (dir === null) dir = path.resolve(arg);
    else throw new PushCommandError(`push takes one DIR (got ${dir} and ${arg})\n${PUSH_USAGE}`);
  }
  if (!url) throw new PushCommandError(`push needs --to URL (or PI_VIEWER_DATABASE_URL)\n${PUSH_USAGE}`);
  // the machine is the first part of a file's name in the archive (`<machine>/<path>`): no slash, nothing hidden
  if (!MACHINE_NAME.test(machine))
    throw new PushCommandError(
      `--machine takes a name of 1 to 100 letters, digits, dots, dashes and underscores, starting with a letter or digit (not ${JSON.stringify(machine)})`,
    );
  return { dir: dir ?? sessionsDir(env), url, machine, watch };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;

/** Progress for a person: rewritten in place on a terminal, a line every few seconds in a log. */
function progressPrinter(stream: NodeJS.WriteStream): { update: (p: PushProgress) => void; end: () => void } {
  const started = Date.now();
  let shown = 0;
  let wrote = false;
  return {
    update(p) {
      const now = Date.now();
      if (p.files === 0 || (p.filesDone < p.files && now - shown < (stream.isTTY ? 200 : 5000))) return;
      shown = now;
      const rate = p.bytesDone / Math.max(0.001, (now - started) / 1000);
      const line = `pushing: ${p.filesDone}/${p.files} files, ${mb(p.bytesDone)} of ${mb(p.bytes)} (${mb(rate)}/s)`;
      stream.write(stream.isTTY ? `\r${line}\u001b[K` : `${line}\n`);
      wrote = true;
    },
    end() {
      if (wrote && stream.isTTY) stream.write("\n");
    },
  };
}

export function reportText(report: PushReport, url: string, ms: number): string {
  const c = report.counts;
  const parts = [`${c.new} new`, `${c.grown} grown`, `${c.replaced} replaced`, `${c.unchanged} unchanged`];
  if (c.copy) parts.push(`${c.copy} held from another machine`);
  if (c.refused) parts.push(`${c.refused} refused`);
  if (c.failed) parts.push(`${c.failed} failed`);
  const total = Object.values(c).reduce((a, b) => a + b, 0);
  const lines = [
    `${report.machine} → ${shownUrl(url)}: ${total} files: ${parts.join(", ")}; ${report.lines} lines, ${mb(report.bytes)} in ${(ms / 1000).toFixed(1)} s`,
  ];
  for (const copy of report.copies) lines.push(`  ${copy}`);
  for (const refused of report.refused) lines.push(`  ${refused}`);
  for (const failed of report.failed) lines.push(`  ${failed}`);
  return lines.join("\n");
}

/** Runs `push`; resolves to the exit code (1 when a file was refused or failed). */
export async function runPush(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parsePushArgs(argv, env);
  let archive;
  try {
    archive = await openArchive(args.url, { onUpgrade: (from, to) => process.stderr.write(`${upgradeNotice(from, to)}\n`) });
  } catch (error) {
    throw new PushCommandError(archiveError(error, args.url).message);
  }
  try {
    const id = await machineId(archive.pool, args.machine);
    const once = async (only: ReadonlySet<string> | null) => {
      const started = Date.now();
      const progress = progressPrinter(process.stderr);
      const report = await pushLibrary(archive.pool, args.dir, { machine: args.machine, machineId: id, only: only ?? undefined, onProgress: progress.update });
      progress.end();
      return { report, ms: Date.now() - started };
    };
    const first = await once(null);
    process.stdout.write(`${reportText(first.report, args.url, first.ms)}\n`);
    if (!args.watch) return first.report.counts.refused + first.report.counts.failed > 0 ? 1 : 0;
    process.stderr.write(`watching ${args.dir} (Ctrl-C to stop)\n`);
    await new Promise<void>((resolve, reject) => {
      const stop = watchLibrary(args.dir, async (only) => {
        try {
          const { report, ms } = await once(only);
          const c = report.counts;
          if (c.new + c.grown + c.replaced + c.refused + c.failed + c.copy > 0)
            process.stdout.write(`${new Date().toISOString()} ${reportText(report, args.url, ms)}\n`);
        } catch (error) {
          void stop().then(() => reject(error));
        }
      });
      const end = () => void stop().then(resolve);
      process.once("SIGINT", end);
      process.once("SIGTERM", end);
    });
    return 0;
  } catch (error) {
    if (error instanceof PushCommandError) throw error;
    throw new PushCommandError(archiveError(error, args.url).message);
  } finally {
    await archive.close();
  }
}

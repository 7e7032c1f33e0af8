/**
 * A deterministic generator of a whole pi sessions directory, for the library search benchmark
 * (bench/library.bench.ts): N sessions of pi's v3 format in `--<cwd>--/<timestamp>_<uuid>.jsonl` folders over
 * about ten projects, totalling about `sizeMB` megabytes.
 *
 * What makes it a fair test of a word index, unlike bench/generate.ts (whose few hundred words make every word
 * common): text is drawn from a Zipf-distributed vocabulary of ~50k words (a head of real English and coding
 * words, a long tail of made-up ones) plus code-like tokens (camelCase and snake_case identifiers, paths, hex,
 * numbers), so there are common words, rare words, and words found once. Tool results, the bulk of a real
 * library, are slices of a per-library code and prose corpus: the same file read again, as in real sessions.
 *
 * Shape: sizes are log-normal (most sessions a few hundred kilobytes) plus a few large ones (10–30 MB at the
 * default size); start times spread over a year; turns of user prompt → assistant (thinking, text, tool calls,
 * with provider, model and usage) → tool results → final answer; now and then a compaction, a branch (the next
 * prompt hangs under an earlier entry) and a fork (a file whose header names its source in `parentSession` and
 * which copies the source's first entries verbatim before going its own way).
 *
 * Usage as a script: `tsx bench/generate-library.ts DIR [--sessions N] [--size-mb M] [--seed S]`.
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";
import { MODELS, randomUsage } from "./models";
import { Rng } from "../lib/session/testing/rng";

/** Changes whenever the same options would write other bytes: a library kept on disk is then made again. */
export const GENERATOR_VERSION = 2;

export interface LibraryOptions {
  sessions: number;
  /** total size aimed at, in MB (10^6 bytes) */
  sizeMB: number;
  seed?: number;
  /** the chance that a session is a fork of an earlier one (default 0.05) */
  forkChance?: number;
}

export interface LibraryStats {
  sessions: number;
  forks: number;
  entries: number;
  bytes: number;
  projects: string[];
  /** library path (relative to the directory) of the largest session */
  largest: string;
}

// ---------------------------------------------------------------- vocabulary

const HEAD = (
  "the of and to a in is it that for on with as this be are we you not can should will file function test " +
  "type value error from by at or an if have was but all use so then when which do has need one new would there " +
  "what run check return data line code add fix change update read write build path string number index session " +
  "entry model token cache server client request response query state config option result output input list " +
  "map set object array null true false import export const let async await promise class interface module " +
  "package version user message content text tool call branch leaf tree node parent child root compaction " +
  "summary label provider usage cost stream buffer chunk parse parser format json yaml html css style layout " +
  "render component props hook route handler event error warning info debug log trace time date size count " +
  "first last next previous before after again also only still because instead maybe probably actually here " +
  "now look see want try keep drop skip handle remove rename move sort compare merge split join open close " +
  "start stop wait retry timeout limit offset page cursor key id name title description status done todo"
).split(" ");

const SYLLABLES = (
  "ka ko ki ku ta to ti tu ra ro ri ru na no ni nu ma mo mi mu sa so si su la lo li lu pa po pi pu ba bo bi bu " +
  "da do di du ga go gi gu fa fo fi fu va vo vi vu za zo zi zu cha cho chi ter tor tin ton lex rix mar mer mor " +
  "ben bor dan del dor fen gal gor hal hen jor kel kor lan len lin mal man nel nor pel por qua ran ren san sel " +
  "sor tal tan tel ven vor wal wen xan yor zel zor ex ar er ir or ur an en in on un al el il ol ul"
).split(" ");

/** ~`size` distinct words: the head first (the most frequent), then made-up words of 2–4 syllables. */
function buildVocabulary(r: Rng, size: number): string[] {
  const words = new Set(HEAD);
  while (words.size < size) {
    const n = r.range(2, 4);
    let w = "";
    for (let i = 0; i < n; i++) w += r.pick(SYLLABLES);
    words.add(w);
  }
  return [...words];
}

/** Ranks drawn with probability ∝ 1/rank^s (inverse CDF by binary search). */
class Zipf {
  private readonly cdf: Float64Array;

  constructor(
    n: number,
    s: number,
    private readonly r: Rng,
  ) {
    this.cdf = new Float64Array(n);
    let sum = 0;
    for (let k = 0; k < n; k++) this.cdf[k] = sum += 1 / Math.pow(k + 1, s);
    for (let k = 0; k < n; k++) this.cdf[k]! /= sum;
  }

  rank(): number {
    const u = this.r.next();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Words, identifiers, paths and corpora of one library. */
class LibraryText {
  readonly words: string[];
  private readonly zipf: Zipf;
  readonly idents: string[];
  readonly code: string;
  readonly prose: string;

  /** `corpus`: characters of prose (code: twice as many) tool results are sliced from */
  constructor(
    private readonly r: Rng,
    corpus = 8_000_000,
  ) {
    this.words = buildVocabulary(r, 50_000);
    this.zipf = new Zipf(this.words.length, 1.05, r);
    // identifiers: two or three words, camelCase or snake_case, themselves Zipf-ranked by the order made
    const idents = new Set<string>();
    while (idents.size < 8000) {
      const parts = Array.from({ length: r.range(2, 3) }, () => this.word());
      idents.add(
        r.chance(0.7)
          ? parts[0] +
              parts
                .slice(1)
                .map((p) => p[0]!.toUpperCase() + p.slice(1))
                .join("")
          : parts.join("_"),
      );
    }
    this.idents = [...idents];
    this.prose = this.freshProse(corpus);
    this.code = this.freshCode(2 * corpus);
  }

  word(): string {
    return this.words[this.zipf.rank()]!;
  }

  ident(): string {
    // the first identifiers are the common ones
    return this.idents[Math.min(this.idents.length - 1, Math.floor(Math.pow(this.r.next(), 3) * this.idents.length))]!;
  }

  filePath(cwd: string): string {
    const r = this.r;
    return `${cwd}/${r.pick(["src", "lib", "test", "app", "scripts", "docs"])}/${this.word()}/${this.ident()}.${r.pick(["ts", "ts", "tsx", "js", "json", "md", "py", "go"])}`;
  }

  /** prose of about `chars` characters, made now: words nobody used in this exact order */
  freshProse(chars: number): string {
    const r = this.r;
    const out: string[] = [];
    let n = 0;
    let sentence = 0;
    while (n < chars) {
      let w = r.chance(0.04) ? "`" + this.ident() + "`" : r.chance(0.005) ? r.hex(r.range(7, 12)) : this.word();
      if (sentence === 0) w = w[0]!.toUpperCase() + w.slice(1);
      sentence++;
      if (sentence > 5 && r.chance(0.12)) {
        w += r.pick([".", ".", ".", "?", ":", ";"]);
        sentence = 0;
        if (r.chance(0.1)) w += r.pick(["\n\n", "\n- ", "\n\n## "]);
      } else if (r.chance(0.06)) w += ",";
      out.push(w);
      n += w.length + 1;
    }
    return out.join(" ");
  }

  private codeLine(): string {
    const r = this.r;
    const id = () => this.ident();
    switch (r.range(0, 11)) {
      case 0:
        return `import { ${id()}, ${id()} } from "./${this.word()}/${id()}";`;
      case 1:
        return `export function ${id()}(${id()}: string, ${id()}?: number): ${r.pick(["void", "string", "Promise<void>", "boolean"])} {`;
      case 2:
        return `  const ${id()} = ${id()}.${id()}(${r.range(0, 4096)});`;
      case 3:
        return `  if (!${id()}) throw new Error(\`${this.word()} ${this.word()}: \${${id()}}\`);`;
      case 4:
        return `    return { ${id()}: ${r.range(0, 999)}, ${id()}: "${this.word()} ${this.word()}" };`;
      case 5:
        return `  // ${this.word()} ${this.word()} ${this.word()} ${this.word()} ${this.word()} ${this.word()}`;
      case 6:
        return `  for (const ${id()} of ${id()}) ${id()}.push(${id()}[${r.range(0, 9)}]);`;
      case 7:
        return `  await ${id()}.${id()}({ path: "${this.word()}/${id()}.ts", retries: ${r.range(1, 5)} });`;
      case 8:
        return `def ${id()}(self, ${id()}, ${id()}=None):  # ${this.word()} ${this.word()}`;
      case 9:
        return `  0x${r.hex(8)} ${id()} ${r.range(0, 99999)} ${this.word()}`;
      case 10:
        return "}";
      default:
        return "";
    }
  }

  freshCode(chars: number): string {
    const out: string[] = [];
    let n = 0;
    while (n < chars) {
      const line = this.codeLine();
      out.push(line);
      n += line.length + 1;
    }
    return out.join("\n");
  }

  private slice(text: string, n: number): string {
    n = Math.min(n, text.length);
    const start = Math.floor(this.r.next() * (text.length - n));
    return text.slice(start, start + n);
  }

  codeText(n: number): string {
    return this.slice(this.code, n);
  }

  proseText(n: number): string {
    const text = this.slice(this.prose, n + 20);
    return text.slice(text.indexOf(" ") + 1, n).trim();
  }
}

// ---------------------------------------------------------------- sessions

type Json = Record<string, unknown>;

const TOOLS = ["read", "read", "read", "bash", "bash", "edit", "edit", "write", "grep", "find", "ls"];
const PROJECTS = ["webapp", "api-server", "mobile", "infra", "data-pipeline", "cli-tools", "docs-site", "ml-models", "game-engine", "payments"];
const YEAR_START = Date.UTC(2025, 2, 1);
const YEAR_MS = 365 * 24 * 3600_000;

/** The folder pi keeps a cwd's sessions in. */
export function projectFolder(cwd: string): string {
  return `--${cwd.replace(/^\//, "").replace(/[/\\:]/g, "-")}--`;
}

function uuidAt(r: Rng, ms: number): string {
  const hex = ms.toString(16).padStart(12, "0");
  const rand = r.hex(20);
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7${rand.slice(0, 3)}-${"89ab"[r.range(0, 3)]}${rand.slice(3, 6)}-${rand.slice(6, 18)}`;
}

/** Writes one session's entries in memory, line by line, under a cursor. */
class SessionWriter {
  readonly lines: string[] = [];
  bytes = 0;
  entries = 0;
  /** ids in the order written, for branches (a prompt under an earlier entry) and compactions */
  readonly order: string[] = [];
  private readonly ids = new Set<string>();
  private model = MODELS[0]!;
  private toolSeq = 0;

  constructor(
    private readonly r: Rng,
    private readonly text: LibraryText,
    readonly cwd: string,
    public clock: number,
    public cursor: string | null,
    known: Iterable<string> = [],
  ) {
    for (const id of known) this.ids.add(id);
    this.model = r.pick(MODELS);
  }

  raw(line: string): void {
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line) + 1;
  }

  private newId(): string {
    let id: string;
    do id = this.r.hex(8);
    while (this.ids.has(id));
    this.ids.add(id);
    return id;
  }

  private append(type: string, body: Json, medianMs: number): void {
    const id = this.newId();
    this.clock += this.r.logNormal(medianMs, 1, 5, medianMs * 40);
    this.raw(JSON.stringify({ type, id, parentId: this.cursor, timestamp: new Date(this.clock).toISOString(), ...body }));
    this.entries++;
    this.order.push(id);
    this.cursor = id;
  }

  private message(message: Json, medianMs: number): void {
    message.timestamp = this.clock;
    this.append("message", { message }, medianMs);
  }

  private usage(): Json {
    return randomUsage(this.r, this.model);
  }

  private user(): void {
    const text = this.text.freshProse(this.r.logNormal(200, 1, 8, 4000));
    this.message({ role: "user", content: this.r.chance(0.5) ? text : [{ type: "text", text }] }, 30_000);
  }

  private toolArguments(name: string): Json {
    const r = this.r;
    const t = this.text;
    switch (name) {
      case "read":
        return r.chance(0.3) ? { path: t.filePath(this.cwd), offset: r.range(1, 900), limit: 200 } : { path: t.filePath(this.cwd) };
      case "bash":
        return { command: r.pick([`npm test -- ${t.ident()}`, "npx tsc --noEmit", "git status --short", `rg -n "${t.ident()}" src`, `ls -la ${t.word()}`]) };
      case "edit":
        return { path: t.filePath(this.cwd), oldText: t.codeText(r.logNormal(200, 0.9, 10, 6000)), newText: t.codeText(r.logNormal(240, 0.9, 10, 6000)) };
      case "write":
        return { path: t.filePath(this.cwd), content: t.codeText(r.logNormal(800, 0.8, 50, 30_000)) };
      case "grep":
        return { pattern: t.ident(), path: "src" };
      default:
        return { path: t.word() };
    }
  }

  private assistant(calls: { id: string; name: string }[]): void {
    const r = this.r;
    const content: Json[] = [];
    if (r.chance(0.35)) content.push({ type: "thinking", thinking: this.text.freshProse(r.logNormal(300, 1, 10, 6000)), thinkingSignature: r.hex(64) });
    if (calls.length === 0 || r.chance(0.35)) content.push({ type: "text", text: this.text.freshProse(r.logNormal(calls.length ? 80 : 300, 1, 5, 6000)) });
    for (const call of calls) content.push({ type: "toolCall", id: call.id, name: call.name, arguments: this.toolArguments(call.name) });
    const m = this.model;
    this.message(
      { role: "assistant", content, api: m.api, provider: m.provider, model: m.model, usage: this.usage(), stopReason: calls.length ? "toolUse" : "stop" },
      6000,
    );
  }

  private toolResult(call: { id: string; name: string }): void {
    const r = this.r;
    const t = this.text;
    let text: string;
    switch (call.name) {
      case "read":
        text = t.codeText(r.logNormal(1200, 1.1, 20, 60_000));
        break;
      case "bash":
        text = r.chance(0.5) ? t.proseText(r.logNormal(400, 1.2, 5, 50_000)) : t.codeText(r.logNormal(400, 1.2, 5, 50_000));
        break;
      case "edit":
        text = `Successfully replaced text in ${t.filePath(this.cwd)}.`;
        break;
      case "write":
        text = `Successfully wrote ${r.range(100, 30_000)} bytes to ${t.filePath(this.cwd)}`;
        break;
      default:
        text = Array.from({ length: r.logNormal(10, 1, 1, 400) }, () => `${t.filePath(this.cwd)}:${r.range(1, 900)}: ${t.codeText(r.range(10, 80))}`).join(
          "\n",
        );
    }
    this.message({ role: "toolResult", toolCallId: call.id, toolName: call.name, content: [{ type: "text", text }], isError: r.chance(0.03) }, 400);
  }

  private compaction(): void {
    const r = this.r;
    const kept = this.order[Math.max(0, this.order.length - r.range(5, 40))]!;
    const summary = `## Goal\n${this.text.freshProse(r.range(80, 300))}\n\n## Progress\n${this.text.freshProse(r.range(200, 1200))}\n\n## Next Steps\n${this.text.freshProse(r.range(60, 300))}`;
    this.append("compaction", { summary, firstKeptEntryId: kept, tokensBefore: r.range(120_000, 190_000) }, 20_000);
  }

  /** One user turn: prompt, a tool loop, a final answer; sometimes a branch, a compaction or a model switch first. */
  turn(): void {
    const r = this.r;
    if (this.order.length > 10 && r.chance(0.04)) this.cursor = this.order[this.order.length - r.range(2, Math.min(30, this.order.length))]!;
    if (this.order.length > 60 && r.chance(0.02)) this.compaction();
    if (r.chance(0.03)) {
      this.model = r.pick(MODELS);
      this.append("model_change", { provider: this.model.provider, modelId: this.model.model }, 3000);
    }
    this.user();
    const rounds = Math.min(30, 1 + Math.floor(-Math.log(1 - r.next()) * 4));
    for (let i = 0; i < rounds; i++) {
      const calls = Array.from({ length: r.chance(0.2) ? r.range(2, 3) : 1 }, () => ({
        id: this.model.provider === "anthropic" ? `toolu_01${r.hex(22)}` : `call_${r.hex(24)}|fc_${(++this.toolSeq).toString(16)}`,
        name: r.pick(TOOLS),
      }));
      this.assistant(calls);
      for (const call of calls) this.toolResult(call);
    }
    this.assistant([]);
  }
}

/** Nominal sizes: log-normal small ones and a few large ones, scaled to `total` bytes. */
function sessionSizes(r: Rng, n: number, total: number): number[] {
  const large = Math.max(1, Math.round(n * 0.015));
  const sizes = Array.from({ length: n }, (_, i) =>
    i % Math.ceil(n / large) === 7 % Math.ceil(n / large) ? r.range(8, 24) * 1e6 : r.logNormal(300_000, 1.1, 4_000, 8e6),
  );
  const sum = sizes.reduce((a, b) => a + b, 0);
  return sizes.map((s) => Math.max(3_000, Math.round((s * total) / sum)));
}

function writeFile(file: string, header: string, lines: readonly string[]): void {
  const fd = openSync(file, "w");
  try {
    let parts: string[] = [header];
    let size = header.length;
    const flush = () => {
      writeSync(fd, parts.join("\n") + "\n");
      parts = [];
      size = 0;
    };
    for (const line of lines) {
      parts.push(line);
      size += line.length;
      if (size > 1 << 20) flush();
    }
    if (parts.length) flush();
  } finally {
    closeSync(fd);
  }
}

/** Writes the library into `dir` (created); the same options always give the same bytes. */
export function generateLibrary(dir: string, options: LibraryOptions, onSession?: (done: number, total: number) => void): LibraryStats {
  const r = new Rng(options.seed ?? 1);
  // a small library (a test's) needs no large corpus
  const text = new LibraryText(new Rng((options.seed ?? 1) ^ 0x5bd1e995), Math.min(8_000_000, Math.max(200_000, options.sizeMB * 125_000)));
  const cwds = PROJECTS.map((p) => `/home/dev/projects/${p}`);
  const sizes = sessionSizes(r, options.sessions, options.sizeMB * 1e6);
  const stats: LibraryStats = { sessions: 0, forks: 0, entries: 0, bytes: 0, projects: cwds, largest: "" };
  let largestBytes = 0;
  // recent small sessions, kept whole so that a fork can copy their first lines
  const sources: { file: string; cwd: string; lines: string[]; clocks: number[] }[] = [];
  for (let i = 0; i < options.sessions; i++) {
    const fork = sources.length > 0 && r.chance(options.forkChance ?? 0.05) ? r.pick(sources) : null;
    const cwd = fork?.cwd ?? cwds[Math.min(cwds.length - 1, Math.floor(Math.pow(r.next(), 1.6) * cwds.length))]!;
    let writer: SessionWriter;
    let start: number;
    const header: Json = { type: "session", version: 3, id: "", timestamp: "", cwd };
    if (fork) {
      const copied = r.range(2, Math.min(200, fork.lines.length));
      const lines = fork.lines.slice(0, copied);
      const ids = lines.map((line) => (JSON.parse(line) as { id: string }).id);
      start = fork.clocks[copied - 1]! + r.range(60_000, 30 * 24 * 3600_000);
      writer = new SessionWriter(r, text, cwd, start, ids[ids.length - 1]!, ids);
      for (const line of lines) writer.raw(line);
      writer.entries += copied;
      writer.order.push(...ids);
      header.parentSession = fork.file;
      stats.forks++;
    } else {
      start = YEAR_START + Math.floor(r.next() * YEAR_MS);
      writer = new SessionWriter(r, text, cwd, start, null);
    }
    const timestamp = new Date(start).toISOString();
    header.id = uuidAt(r, start);
    header.timestamp = timestamp;
    const clocks: number[] = [];
    while (writer.bytes < sizes[i]!) {
      writer.turn();
      while (clocks.length < writer.lines.length) clocks.push(writer.clock);
    }
    const folder = path.join(dir, projectFolder(cwd));
    mkdirSync(folder, { recursive: true });
    const name = `${timestamp.replace(/[:.]/g, "-")}_${header.id as string}.jsonl`;
    const file = path.join(folder, name);
    const headerLine = JSON.stringify(header);
    writeFile(file, headerLine, writer.lines);
    const bytes = writer.bytes + Buffer.byteLength(headerLine) + 1;
    stats.sessions++;
    stats.entries += writer.entries;
    stats.bytes += bytes;
    if (bytes > largestBytes) {
      largestBytes = bytes;
      stats.largest = `${projectFolder(cwd)}/${name}`;
    }
    if (!fork && bytes < 2e6) {
      sources.push({ file, cwd, lines: writer.lines.slice(0, 200), clocks: clocks.slice(0, 200) });
      if (sources.length > 40) sources.shift();
    }
    onSession?.(i + 1, options.sessions);
  }
  return stats;
}

/**
 * Appends `count` entries to a session file, continuing its last entry (so its leaf moves): the session growing
 * while pi works in it. Returns the new leaf's id.
 */
export function appendEntries(file: string, count: number, seed = 7): string {
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  const header = JSON.parse(lines[0]!) as { cwd: string };
  const known: string[] = [];
  let last: { id: string; timestamp: string } | null = null;
  for (const line of lines.slice(1)) {
    const entry = JSON.parse(line) as { id: string; timestamp: string };
    known.push(entry.id);
    last = entry;
  }
  const r = new Rng(seed);
  const text = new LibraryText(new Rng(seed ^ 0x5bd1e995), 1_000_000);
  const writer = new SessionWriter(r, text, header.cwd, last ? Date.parse(last.timestamp) : Date.now(), last?.id ?? null, known);
  while (writer.entries < count) writer.turn();
  const fd = openSync(file, "a");
  try {
    writeSync(fd, writer.lines.slice(0, count).join("\n") + "\n");
  } finally {
    closeSync(fd);
  }
  return writer.order[count - 1]!;
}

if (process.argv[1] && /generate-library\.[cm]?[jt]s$/.test(process.argv[1])) {
  const args = process.argv.slice(2);
  const flag = (name: string, fallback: number) => {
    const at = args.indexOf(name);
    return at === -1 ? fallback : Number(args[at + 1]);
  };
  const dir = args.find((a, i) => !a.startsWith("--") && (i === 0 || !args[i - 1]!.startsWith("--")));
  if (!dir) {
    process.stderr.write("usage: tsx bench/generate-library.ts DIR [--sessions N] [--size-mb M] [--seed S]\n");
    process.exit(1);
  }
  const started = performance.now();
  const stats = generateLibrary(dir, { sessions: flag("--sessions", 1000), sizeMB: flag("--size-mb", 1000), seed: flag("--seed", 1) }, (done, total) => {
    if (done % 50 === 0 || done === total) process.stderr.write(`\r${done}/${total} sessions`);
  });
  process.stderr.write(`\n${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(JSON.stringify(stats) + "\n");
}

/**
 * A deterministic generator of realistic pi v3 session files (coding-agent
 * shape, spec: shared/spec/session-format.md), for benchmarks.
 *
 * Pure: no Node APIs, so a browser benchmark can import it too. Output is one
 * `JSON.stringify`d object per line, every line ending in "\n", exactly as pi's
 * SessionManager writes.
 *
 * Shape of a session: a header, a model and a thinking-level change, then
 * turns (user prompt → assistant with thinking and tool calls → tool results →
 * … → final assistant text). Most entries sit on one main branch, so the
 * deepest root path is long; side branches leave the main branch now and then
 * (a /tree jump back a few entries, a few turns, often a branch summary on
 * each switch) and the writer always returns to the main leaf. Along the main
 * branch come compactions (kept range from a recent user message), labels
 * (set and cleared), model and thinking-level changes, `custom` and
 * `custom_message` entries, `bashExecution` messages, a session name and its
 * rename, and now and then a user image.
 *
 * Sizes follow the real sessions in shared/fixtures/real: tool results have a
 * long-tailed size around a kilobyte (up to ~60 KB), assistant messages carry
 * thinking text and a signature. The default settings give ≈ 1 KB per line,
 * so 100k entries ≈ 100 MB.
 */
import { utf8Length } from "../lib/share/utf8-length";
import { MODELS, randomUsage } from "./models";
import { Rng } from "../lib/session/testing/rng";

export interface GenerateOptions {
  /** Number of entry lines (the header comes on top). */
  entries: number;
  /** PRNG seed; the same options always give the same bytes. */
  seed?: number;
  /** Multiplies every tool output / file content size (default 1). */
  sizeScale?: number;
  /** Mean number of main-branch entries between two side branches (default 220). */
  sideBranchEvery?: number;
  /** Mean number of main-branch entries between two compactions (default 650). */
  compactionEvery?: number;
  /** Header cwd (default "/home/dev/projects/webapp"). */
  cwd?: string;
  /** Header timestamp in ms (default 2026-01-05T09:00:00.000Z). */
  startMs?: number;
  /**
   * Mean number of tool results between two huge ones (a multi-megabyte bash
   * output, as when a command dumps a log); 0 (default) writes none. Drawn from
   * a separate random stream; with the defaults the file is the same as without
   * these options.
   */
  hugeResultEvery?: number;
  /** Characters of a huge tool result (default 3 MiB). */
  hugeResultChars?: number;
  /** Chance that a user message carries a base64 image (default 0.002). */
  imageChance?: number;
}

export interface GenerateStats {
  /** entry lines written (header excluded) */
  entries: number;
  /** lines including the header */
  lines: number;
  /** UTF-8 bytes of the file */
  bytes: number;
  sessionId: string;
  /** id of the last entry line: pi's leaf after loading */
  leafId: string | null;
  /** the entry with the longest root path (first such in file order) */
  deepestId: string | null;
  /** number of entries on that path, root and entry included */
  deepestDepth: number;
  mainBranchEntries: number;
  sideBranches: number;
  sideBranchEntries: number;
  compactions: number;
  /** ids of the huge tool results (see hugeResultEvery), in file order */
  hugeResults: string[];
  /** ids of the user messages with an image, in file order */
  images: string[];
  /** entries per type; messages as `message:<role>` */
  byType: Record<string, number>;
}

// ---------------------------------------------------------------- text corpora

const WORDS = (
  "the a to of and in is it that for on with as this be we should can will not file function test type value " +
  "error index session entry tree parser branch leaf context model token cache build run check read write update " +
  "change return string number object array map set null undefined async await promise import export const let " +
  "handler request response server client route query state hook render component props layout node edge path " +
  "compaction summary label thinking signature provider usage cost input output line chunk buffer stream decoder " +
  "because first then after before when while instead only also still again maybe probably actually simply " +
  "look see need want try fix add remove rename move keep drop skip handle parse index walk sort compare"
).split(" ");

const IDENTS = (
  "session entries byId parentId leafId buildIndex readLine parseChunk pending decoder buffer offset limit " +
  "children roots labels model thinkingLevel usage cost result value options config handler request response " +
  "cache retryWithBackoff formatDuration createPool migrate renderTree useSession handleLogin node edge layout"
).split(" ");

const FILES = [
  "src/server.ts",
  "src/lib/cache.ts",
  "src/lib/retry.ts",
  "src/db/pool.ts",
  "src/routes/users.ts",
  "src/ui/components/Tree.tsx",
  "src/ui/hooks/useSession.ts",
  "src/ui/Panel.tsx",
  "test/lib/retry.test.ts",
  "test/routes/users.test.ts",
  "docs/architecture.md",
  "package.json",
  "tsconfig.json",
  "README.md",
  "src/lib/session/parse.ts",
  "src/lib/session/tree.ts",
  "src/i18n/messages.de.json",
  "scripts/build.mjs",
];

const CODE_TEMPLATES = [
  (r: Rng) => `import { ${r.pick(IDENTS)}, ${r.pick(IDENTS)} } from "./${r.pick(IDENTS)}";`,
  (r: Rng) =>
    `export function ${r.pick(IDENTS)}(${r.pick(IDENTS)}: string, ${r.pick(IDENTS)}?: number): ${r.pick(["void", "string", "Promise<void>", "boolean"])} {`,
  (r: Rng) => `  const ${r.pick(IDENTS)} = ${r.pick(IDENTS)}.${r.pick(IDENTS)}(${r.range(0, 4096)});`,
  (r: Rng) => `  if (!${r.pick(IDENTS)}) throw new Error(\`${r.pick(WORDS)} ${r.pick(WORDS)}: \${${r.pick(IDENTS)}}\`);`,
  (r: Rng) => `    return { "${r.pick(IDENTS)}": ${r.range(0, 99)}, '${r.pick(IDENTS)}': "${r.pick(WORDS)}\\n" };`,
  (r: Rng) =>
    `  // ${r.pick(WORDS)} ${r.pick(WORDS)} ${r.pick(WORDS)} ${r.pick(WORDS)} ${r.pick(WORDS)} (${r.pick(["see #" + r.range(10, 999), "TODO", "→ later", "naïve", "O(n²)"])})`,
  (r: Rng) => `\tfor (let i = 0; i < ${r.pick(IDENTS)}.length; i++) ${r.pick(IDENTS)}.push(${r.pick(IDENTS)}[i]);`,
  (r: Rng) => `  await ${r.pick(IDENTS)}.${r.pick(IDENTS)}({ path: "${r.pick(FILES)}", retries: ${r.range(1, 5)} });`,
  () => `}`,
  () => ``,
  (r: Rng) => `const re = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/; // ${r.pick(WORDS)}`,
  (r: Rng) => `  "${r.pick(IDENTS)}": "${r.pick(WORDS)} ${r.pick(WORDS)} ${r.pick(["✓", "😀", "日本語", "\\\\", "ü"])}",`,
];

function buildCode(r: Rng, chars: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    const line = r.pick(CODE_TEMPLATES)(r);
    out.push(line);
    n += line.length + 1;
  }
  return out.join("\n");
}

function buildProse(r: Rng, chars: number): string {
  const out: string[] = [];
  let n = 0;
  let sentence = 0;
  while (n < chars) {
    let word = r.pick(WORDS);
    if (sentence === 0) word = word[0]!.toUpperCase() + word.slice(1);
    if (r.chance(0.04)) word = "`" + r.pick(IDENTS) + "`";
    else if (r.chance(0.02)) word = r.pick(FILES);
    sentence++;
    if (sentence > 6 && r.chance(0.15)) {
      word += r.pick([".", ".", ".", "?", ":"]);
      sentence = 0;
      if (r.chance(0.12)) word += r.pick(["\n\n", "\n- ", "\n\n## Notes\n"]);
    }
    out.push(word);
    n += word.length + 1;
  }
  return out.join(" ");
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function randomChars(r: Rng, alphabet: string, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(r.next() * alphabet.length)];
  return s;
}

/** Slices of large pre-built corpora: realistic text at memcpy speed. */
class Corpus {
  readonly code: string;
  readonly prose: string;
  readonly b64: string;

  constructor(private readonly r: Rng) {
    this.code = buildCode(r, 1 << 21);
    this.prose = buildProse(r, 1 << 19);
    this.b64 = randomChars(r, B64, 1 << 18);
  }

  private slice(text: string, n: number): string {
    n = Math.min(n, text.length);
    const start = Math.floor(this.r.next() * (text.length - n));
    return text.slice(start, start + n);
  }

  codeText(n: number): string {
    return this.slice(this.code, n);
  }

  /** prose starting at a word boundary */
  proseText(n: number): string {
    const text = this.slice(this.prose, n + 12);
    const space = text.indexOf(" ");
    return text.slice(space + 1, space + 1 + n).trim();
  }

  base64(n: number): string {
    return this.slice(this.b64, n);
  }

  /** code text of any length: slices of the corpus end to end */
  longCode(n: number): string {
    const parts: string[] = [];
    for (let left = n; left > 0; left -= this.code.length) parts.push(this.slice(this.code, Math.min(left, this.code.length)));
    return parts.join("\n");
  }
}

// ---------------------------------------------------------------- the writer

type Json = Record<string, unknown>;

const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"];
const TOOLS = ["read", "read", "read", "bash", "bash", "edit", "edit", "write", "grep", "find", "ls"];

/** Writes one session line by line; the state is the main leaf, a cursor and the file's clock. */
class SessionWriter {
  readonly r: Rng;
  readonly text: Corpus;
  readonly stats: GenerateStats;
  private readonly ids = new Set<string>();
  private readonly depth = new Map<string, number>();
  private clock: number;
  /** the entry the next appended entry hangs under */
  cursor: string | null = null;
  /** ids on the main branch, root first */
  readonly mainPath: string[] = [];
  /** indices into mainPath of user messages (compaction kept ranges start there) */
  readonly mainUserIdx: number[] = [];
  onMain = true;
  model = MODELS[0]!;
  thinkingLevel = "medium";
  private toolSeq = 0;
  private readonly sizeScale: number;
  /** randomness for the opt-in extras (huge results, images), apart from the main stream */
  private readonly extra: Rng;

  constructor(readonly opts: Settings) {
    this.r = new Rng(opts.seed);
    this.text = new Corpus(new Rng(opts.seed ^ 0x5bd1e995));
    this.clock = opts.startMs;
    this.sizeScale = opts.sizeScale;
    this.stats = {
      entries: 0,
      lines: 0,
      bytes: 0,
      sessionId: "",
      leafId: null,
      deepestId: null,
      deepestDepth: 0,
      mainBranchEntries: 0,
      sideBranches: 0,
      sideBranchEntries: 0,
      compactions: 0,
      hugeResults: [],
      images: [],
      byType: {},
    };
    this.extra = new Rng(opts.seed ^ 0x2545f491);
  }

  get remaining(): number {
    return this.opts.entries - this.stats.entries;
  }

  header(): string {
    const ms = this.clock;
    const hex = ms.toString(16).padStart(12, "0");
    const rand = randomChars(this.r, "0123456789abcdef", 20);
    const id = `${hex.slice(0, 8)}-${hex.slice(8)}-7${rand.slice(0, 3)}-${"89ab"[this.r.range(0, 3)]}${rand.slice(3, 6)}-${rand.slice(6, 18)}`;
    this.stats.sessionId = id;
    return this.line({ type: "session", version: 3, id, timestamp: new Date(ms).toISOString(), cwd: this.opts.cwd });
  }

  private newId(): string {
    let id: string;
    do id = randomChars(this.r, "0123456789abcdef", 8);
    while (this.ids.has(id));
    this.ids.add(id);
    return id;
  }

  /** advance the clock by a log-normal number of milliseconds */
  tick(medianMs: number): number {
    this.clock += this.r.logNormal(medianMs, 1, 5, medianMs * 40);
    return this.clock;
  }

  private line(value: Json): string {
    const s = JSON.stringify(value) + "\n";
    this.stats.lines++;
    this.stats.bytes += utf8Length(s);
    return s;
  }

  /** Append one entry under the cursor; `body` is everything after the envelope. */
  append(type: string, body: Json, medianMs = 2000): string {
    const id = this.newId();
    const parentId = this.cursor;
    const ms = this.tick(medianMs);
    const timestamp = new Date(ms).toISOString();
    // a message's own timestamp (ms) is taken just before pi appends its entry
    if (type === "message" && typeof (body.message as Json).timestamp === "number") (body.message as Json).timestamp = ms - 1;
    const entry: Json = type === "custom" ? { type, ...body, id, parentId, timestamp } : { type, id, parentId, timestamp, ...body };
    const d = (parentId === null ? 0 : this.depth.get(parentId)!) + 1;
    this.depth.set(id, d);
    const s = this.stats;
    if (d > s.deepestDepth) {
      s.deepestDepth = d;
      s.deepestId = id;
    }
    s.entries++;
    s.leafId = id;
    const key = type === "message" ? `message:${(body.message as Json).role}` : type;
    s.byType[key] = (s.byType[key] ?? 0) + 1;
    if (this.onMain) {
      s.mainBranchEntries++;
      this.mainPath.push(id);
      if (key === "message:user") this.mainUserIdx.push(this.mainPath.length - 1);
    } else {
      s.sideBranchEntries++;
    }
    this.cursor = id;
    return this.line(entry);
  }

  message(message: Json, medianMs?: number): string {
    return this.append("message", { message }, medianMs);
  }

  // -------------------------------------------------------------- message bodies

  userMessage(): string {
    const r = this.r;
    const text = this.text.proseText(r.logNormal(160, 1, 8, 4000));
    let content: unknown;
    const image = this.opts.imageChance === undefined ? r.chance(0.002) : this.extra.chance(this.opts.imageChance);
    if (image) {
      content = [
        { type: "text", text },
        { type: "image", data: this.text.base64(r.range(20_000, 120_000)), mimeType: "image/png" },
      ];
    } else if (r.chance(0.5)) {
      content = [{ type: "text", text }];
    } else {
      content = text;
    }
    const line = this.message({ role: "user", content, timestamp: 0 }, 30_000);
    if (image) this.stats.images.push(this.stats.leafId!);
    return line;
  }

  private usage(): Json {
    return randomUsage(this.r, this.model);
  }

  private toolArguments(name: string): Json {
    const r = this.r;
    const path = `${this.opts.cwd}/${r.pick(FILES)}`;
    const scale = this.sizeScale;
    switch (name) {
      case "read":
        return r.chance(0.3) ? { path, offset: r.range(1, 900), limit: r.pick([100, 200, 400]) } : { path };
      case "bash":
        return {
          command: r.pick([
            "npm test",
            "npx tsc --noEmit",
            "git status --short",
            "git diff --stat",
            `rg -n "${r.pick(IDENTS)}" src`,
            "ls -la src",
            `npx vitest run ${r.pick(FILES)}`,
          ]),
          ...(r.chance(0.2) ? { timeout: 120 } : {}),
        };
      case "edit":
        return {
          path,
          oldText: this.text.codeText(r.logNormal(200 * scale, 0.9, 10, 6000)),
          newText: this.text.codeText(r.logNormal(240 * scale, 0.9, 10, 6000)),
        };
      case "write":
        return { path, content: this.text.codeText(r.logNormal(700 * scale, 0.8, 50, 30_000)) };
      case "grep":
        return { pattern: r.pick(IDENTS), path: "src", ...(r.chance(0.3) ? { glob: "*.ts" } : {}) };
      case "find":
        return { pattern: `*${r.pick(["ts", "tsx", "json", "md"])}`, path: "." };
      default:
        return { path: "src" };
    }
  }

  /** An assistant message; `calls` tool calls (0: the turn's final answer). */
  assistant(calls: { id: string; name: string }[]): string {
    const r = this.r;
    const content: Json[] = [];
    if (this.thinkingLevel !== "off" && r.chance(0.35)) {
      const block: Json = { type: "thinking", thinking: this.text.proseText(r.logNormal(300, 1, 10, 8000)) };
      if (this.model.provider === "anthropic") block.thinkingSignature = this.text.base64(r.logNormal(500, 0.6, 40, 4000));
      else if (this.model.provider === "openai")
        block.thinkingSignature = JSON.stringify({
          type: "reasoning",
          id: `rs_${randomChars(r, ALNUM, 24)}`,
          encrypted_content: this.text.base64(r.range(300, 1200)),
        });
      content.push(block);
    }
    if (calls.length === 0 || r.chance(0.35)) {
      content.push({ type: "text", text: this.text.proseText(calls.length === 0 ? r.logNormal(160, 1, 10, 8000) : r.logNormal(60, 0.8, 5, 600)) });
    }
    for (const call of calls) content.push({ type: "toolCall", id: call.id, name: call.name, arguments: this.toolArguments(call.name) });
    const stopReason = calls.length > 0 ? "toolUse" : r.chance(0.01) ? "aborted" : r.chance(0.005) ? "error" : r.chance(0.01) ? "length" : "stop";
    const m = this.model;
    const message: Json = { role: "assistant", content, api: m.api, provider: m.provider, model: m.model, usage: this.usage(), stopReason };
    if (stopReason === "error") message.errorMessage = 'Overloaded: 529 {"type":"error","error":{"type":"overloaded_error"}}';
    message.timestamp = 0; // set when appended
    if (m.provider === "anthropic") message.responseId = `msg_${randomChars(r, ALNUM, 24)}`;
    return this.message(message, 6000);
  }

  toolResult(call: { id: string; name: string }): string {
    const r = this.r;
    const scale = this.sizeScale;
    const isError = r.chance(0.03);
    let text: string;
    let details: Json | undefined;
    switch (call.name) {
      case "read":
        text = this.text.codeText(r.logNormal(500 * scale, 1.1, 20, 60_000));
        if (r.chance(0.1)) text += `\n\n[Showing lines 1-400 of ${r.range(401, 3000)}. Use offset=401 to continue.]`;
        break;
      case "bash":
        text = r.chance(0.5) ? this.text.proseText(r.logNormal(320 * scale, 1.2, 5, 50_000)) : this.text.codeText(r.logNormal(320 * scale, 1.2, 5, 50_000));
        if (r.chance(0.05))
          details = {
            truncation: { truncated: true, totalLines: r.range(2000, 20_000), outputLines: 2000 },
            fullOutputPath: `/tmp/pi-bash-${randomChars(r, "0123456789abcdef", 8)}.log`,
          };
        break;
      case "edit":
        text = `Successfully replaced text in ${r.pick(FILES)}.`;
        details = { diff: this.text.codeText(r.logNormal(400 * scale, 0.9, 40, 20_000)), firstChangedLine: r.range(1, 900) };
        break;
      case "write":
        text = `Successfully wrote ${r.range(100, 30_000)} bytes to ${r.pick(FILES)}`;
        break;
      default:
        text = Array.from(
          { length: r.logNormal(12 * scale, 1, 1, 800) },
          () => r.pick(FILES) + (call.name === "grep" ? `:${r.range(1, 900)}: ${this.text.codeText(r.range(10, 90))}` : ""),
        ).join("\n");
    }
    const huge = this.opts.hugeResultEvery > 0 && this.extra.chance(1 / this.opts.hugeResultEvery);
    if (huge) text = this.text.longCode(this.opts.hugeResultChars);
    if (isError && !huge)
      text = `Error: ${r.pick(["ENOENT: no such file or directory", "Command exited with code 1", "oldText not found in file", "Operation aborted"])}\n${text.slice(0, 400)}`;
    const message: Json = { role: "toolResult", toolCallId: call.id, toolName: call.name, content: [{ type: "text", text }] };
    if (details) message.details = details;
    message.isError = isError;
    message.timestamp = 0; // set when appended
    const line = this.message(message, call.name === "bash" ? 4000 : 150);
    if (huge) this.stats.hugeResults.push(this.stats.leafId!);
    return line;
  }

  toolCallId(): string {
    this.toolSeq++;
    return this.model.provider === "anthropic"
      ? `toolu_01${randomChars(this.r, ALNUM, 22)}`
      : `call_${randomChars(this.r, ALNUM, 24)}|fc_${this.toolSeq.toString(16)}`;
  }

  // -------------------------------------------------------------- structural entries

  compaction(): string | null {
    const users = this.mainUserIdx;
    if (users.length < 3) return null;
    const r = this.r;
    // keep from a user message 1–3 turns back (pi keeps ~20k tokens of recent context)
    const kept = users[Math.max(0, users.length - r.range(1, 3))]!;
    const readFiles = Array.from({ length: r.range(1, 12) }, () => r.pick(FILES));
    const modifiedFiles = Array.from({ length: r.range(0, 8) }, () => r.pick(FILES));
    const summary =
      `## Goal\n${this.text.proseText(r.range(80, 300))}\n\n## Progress\n### Done\n- [x] ${this.text.proseText(r.range(200, 900))}\n### In Progress\n- [ ] ${this.text.proseText(r.range(60, 300))}\n\n` +
      `## Key Decisions\n- **${r.pick(WORDS)}**: ${this.text.proseText(r.range(100, 500))}\n\n## Next Steps\n1. ${this.text.proseText(r.range(60, 300))}\n\n<read-files>\n${readFiles.join("\n")}\n</read-files>`;
    this.stats.compactions++;
    const body: Json = { summary, firstKeptEntryId: this.mainPath[kept], tokensBefore: r.range(120_000, 190_000), details: { readFiles, modifiedFiles } };
    if (r.chance(0.8)) body.usage = this.usage();
    if (r.chance(0.05)) body.fromHook = true;
    return this.append("compaction", body, 20_000);
  }

  branchSummary(fromId: string | null): string {
    const r = this.r;
    const body: Json = {
      fromId: fromId ?? "root",
      summary: `## Goal\n${this.text.proseText(r.range(60, 200))}\n\n## What was tried on the abandoned branch\n- ${this.text.proseText(r.range(100, 700))}\n\n## Outcome\n${this.text.proseText(r.range(30, 200))}`,
    };
    if (r.chance(0.7)) body.details = { readFiles: [r.pick(FILES)], modifiedFiles: [] };
    if (r.chance(0.7)) body.usage = this.usage();
    return this.append("branch_summary", body, 15_000);
  }

  label(): string {
    const r = this.r;
    const path = this.mainPath;
    const target = path[Math.max(0, path.length - r.range(1, 200))]!;
    const body: Json = { targetId: target };
    if (r.chance(0.85)) body.label = r.pick(["checkpoint", "good state", "before refactor", "bug repro", "tests green", "✓ reviewed", "try again here"]);
    return this.append("label", body, 3000);
  }

  modelChange(): string {
    const m = this.r.pick(MODELS);
    this.model = m;
    return this.append("model_change", { provider: m.provider, modelId: m.model }, 5000);
  }

  thinkingChange(): string {
    this.thinkingLevel = this.r.pick(THINKING_LEVELS);
    return this.append("thinking_level_change", { thinkingLevel: this.thinkingLevel }, 3000);
  }

  custom(): string {
    const r = this.r;
    const customType = r.pick(["plan-mode", "todo-state", "git-checkpoint", "permission-gate"]);
    const data =
      customType === "todo-state"
        ? { todos: Array.from({ length: r.range(1, 8) }, (_, i) => ({ id: i + 1, text: this.text.proseText(r.range(20, 80)), done: r.chance(0.5) })) }
        : customType === "git-checkpoint"
          ? { commit: randomChars(r, "0123456789abcdef", 40), dirty: r.chance(0.3) }
          : { step: r.range(1, 12), enabled: r.chance(0.5) };
    return this.append("custom", { customType, data }, 500);
  }

  customMessage(): string {
    const r = this.r;
    const body: Json = { customType: r.pick(["reminder", "file-watch", "ci-status"]), content: this.text.proseText(r.range(40, 600)), display: r.chance(0.7) };
    if (r.chance(0.4)) body.details = { source: r.pick(["extension", "watcher"]), at: this.clock };
    return this.append("custom_message", body, 1000);
  }

  bashExecution(): string {
    const r = this.r;
    const cancelled = r.chance(0.05);
    const message: Json = {
      role: "bashExecution",
      command: r.pick(["git log --oneline | head", "npm run lint", "ls", "cat package.json"]),
      output: this.text.codeText(r.logNormal(500 * this.sizeScale, 1, 0, 20_000)),
    };
    if (!cancelled) message.exitCode = r.chance(0.85) ? 0 : 1;
    message.cancelled = cancelled;
    message.truncated = false;
    if (r.chance(0.2)) message.excludeFromContext = true;
    message.timestamp = 0; // set when appended
    return this.message(message, 8000);
  }

  sessionInfo(): string {
    return this.append("session_info", { name: this.text.proseText(this.r.range(12, 50)).replace(/\s+/g, " ") }, 1000);
  }

  /** One user turn: prompt, tool loop, final answer; stops early if the budget runs out. */
  *turn(budget: number): Generator<string> {
    const r = this.r;
    if (budget <= 0) return;
    yield this.userMessage();
    let left = budget - 1;
    const rounds = r.count(5, 40);
    for (let i = 0; i < rounds && left > 0; i++) {
      const calls = Array.from({ length: r.chance(0.25) ? r.range(2, 4) : 1 }, () => ({ id: this.toolCallId(), name: r.pick(TOOLS) }));
      yield this.assistant(calls);
      left--;
      for (const call of calls) {
        if (left <= 0) return;
        yield this.toolResult(call);
        left--;
      }
    }
    if (left > 0) yield this.assistant([]);
  }
}

type Settings = Required<Omit<GenerateOptions, "startMs" | "imageChance">> & { startMs: number; imageChance: number | undefined };

function withDefaults(options: GenerateOptions): Settings {
  return {
    entries: options.entries,
    seed: options.seed ?? 1,
    sizeScale: options.sizeScale ?? 1,
    sideBranchEvery: options.sideBranchEvery ?? 220,
    compactionEvery: options.compactionEvery ?? 650,
    cwd: options.cwd ?? "/home/dev/projects/webapp",
    startMs: options.startMs ?? Date.UTC(2026, 0, 5, 9, 0, 0),
    hugeResultEvery: options.hugeResultEvery ?? 0,
    hugeResultChars: options.hugeResultChars ?? 3 * 1024 * 1024,
    imageChance: options.imageChance,
  };
}

/**
 * The session's lines, one string per line ("\n" included). `stats` is filled
 * as the lines are produced and is complete once the generator is done.
 */
export function* sessionLines(options: GenerateOptions, stats?: (s: GenerateStats) => void): Generator<string> {
  const w = new SessionWriter(withDefaults(options));
  const r = w.r;
  const opts = w.opts;
  stats?.(w.stats);
  yield w.header();
  if (w.remaining > 0) yield w.modelChange();
  if (w.remaining > 0) yield w.thinkingChange();

  let sinceBranch = 0;
  let sinceCompaction = 0;
  let nextBranch = r.range(opts.sideBranchEvery / 2, opts.sideBranchEvery * 1.5);
  let nextCompaction = r.range(opts.compactionEvery * 0.6, opts.compactionEvery * 1.4);
  let named = false;
  while (w.remaining > 0) {
    const before = w.stats.mainBranchEntries;

    // things that happen between turns, on the main branch
    if (!named && w.stats.entries > 8) {
      named = true;
      yield w.sessionInfo();
    } else if (r.chance(0.0005)) yield w.sessionInfo();
    if (w.remaining > 0 && r.chance(0.012)) yield w.modelChange();
    if (w.remaining > 0 && r.chance(0.02)) yield w.thinkingChange();
    if (w.remaining > 0 && r.chance(0.05)) yield w.label();
    if (w.remaining > 0 && r.chance(0.08)) yield w.custom();
    if (w.remaining > 0 && r.chance(0.02)) yield w.customMessage();
    if (w.remaining > 0 && r.chance(0.04)) yield w.bashExecution();
    if (w.remaining > 0 && sinceCompaction >= nextCompaction) {
      const line = w.compaction();
      if (line) yield line;
      sinceCompaction = 0;
      nextCompaction = r.range(opts.compactionEvery * 0.6, opts.compactionEvery * 1.4);
    }

    // a side branch: jump back up to 40 main entries, work there, come back to the main leaf
    if (sinceBranch >= nextBranch && w.mainPath.length > 50) {
      const long = r.chance(0.05);
      const size = long ? r.range(100, 600) : r.range(4, 40);
      if (w.remaining > 2 * size + 100) {
        const mainLeaf = w.cursor;
        const { model, thinkingLevel } = w;
        const from = w.mainPath[w.mainPath.length - 1 - r.range(1, 40)]!;
        w.onMain = false;
        w.stats.sideBranches++;
        w.cursor = from;
        if (r.chance(0.5)) yield w.branchSummary(from);
        let sideLeft = size;
        while (sideLeft > 0) {
          const start = w.stats.entries;
          for (const line of w.turn(sideLeft)) yield line;
          sideLeft -= w.stats.entries - start;
          if (long && sideLeft > 0 && r.chance(0.1)) yield w.thinkingChange();
        }
        w.onMain = true;
        w.cursor = mainLeaf;
        // settings are branch-local: back on the main branch, its model and level apply again
        w.model = model;
        w.thinkingLevel = thinkingLevel;
        if (r.chance(0.5)) yield w.branchSummary(mainLeaf);
      }
      sinceBranch = 0;
      nextBranch = r.range(opts.sideBranchEvery / 2, opts.sideBranchEvery * 1.5);
    }

    for (const line of w.turn(w.remaining)) yield line;
    const grown = w.stats.mainBranchEntries - before;
    sinceBranch += grown;
    sinceCompaction += grown;
  }
}

/** The whole session file as one string. */
export function generateSession(options: GenerateOptions): string {
  return generateSessionWithStats(options).text;
}

export function generateSessionWithStats(options: GenerateOptions): { text: string; stats: GenerateStats } {
  let stats!: GenerateStats;
  const parts: string[] = [];
  for (const line of sessionLines(options, (s) => (stats = s))) parts.push(line);
  return { text: parts.join(""), stats };
}

/**
 * The session in chunks of about `chunkChars` characters, for writing a large
 * file without holding it whole (Node: fs.writeSync each chunk; browser: Blob parts).
 */
export function* sessionChunks(options: GenerateOptions, stats?: (s: GenerateStats) => void, chunkChars = 1 << 20): Generator<string> {
  let parts: string[] = [];
  let size = 0;
  for (const line of sessionLines(options, stats)) {
    parts.push(line);
    size += line.length;
    if (size >= chunkChars) {
      yield parts.join("");
      parts = [];
      size = 0;
    }
  }
  if (parts.length) yield parts.join("");
}

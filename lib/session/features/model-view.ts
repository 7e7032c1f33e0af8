/**
 * What the model is sent at a node, and how full its window is: the context
 * after pi's convertToLlm, each message's estimateTokens, and pi's estimate of
 * the whole (usage of the last valid assistant reply plus chars/4 for what
 * follows it), all by the rules the session is read with.
 */
import type { LlmMessage } from "../rules/coding-agent-0.84/llm";
import { calculateContextTokens, shouldCompact, type CompactionSettings, type TokenEstimate } from "../rules/coding-agent-0.84/tokens";
import { RULE_SETS } from "../rules/registry";
import type { Session } from "../session";
import type { TreePath } from "../tree/tree-path";
import type { PathIndex } from "../tree/path-index";
import { isObject } from "../json";
import type { JsonObject, RuleSetId, SessionContext, TreeEntry } from "../types";

export interface ModelView {
  context: SessionContext;
  /** convertToLlm of the context's messages */
  llm: LlmMessage[];
  /** estimateTokens of each context message; null where pi cannot measure it (it throws) */
  messageTokens: (number | null)[];
  /** pi's estimate of the context; null when pi cannot make one (`tokensError` says why) */
  tokens: TokenEstimate | null;
  tokensError: string | null;
}

const errorText = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** The model's view at `id` (null: before any entry). Throws what `context` throws (an unknown id, a cycle). */
export function modelView(session: Session, id: string | null, reader: RuleSetId = session.reader): ModelView {
  const rules = RULE_SETS[reader];
  const context = session.context(id, reader);
  const path = () => (id === null ? [] : session.branch(id, reader));
  const messageTokens = context.messages.map((m) => {
    try {
      return rules.messageTokens(m.message);
    } catch {
      return null;
    }
  });
  let tokens: TokenEstimate | null = null;
  let tokensError: string | null = null;
  try {
    tokens = rules.contextTokens(context.messages, path);
  } catch (error) {
    tokensError = `pi cannot estimate this context (${errorText(error)})`;
  }
  return { context, llm: rules.llm(context.messages), messageTokens, tokens, tokensError };
}

/** One point of the context-size chart: a reply's reported context, a compaction or a branch summary. */
export interface ContextSizePoint {
  entryId: string;
  /** position on the path, 0 = the root */
  index: number;
  kind: "usage" | "compaction" | "branchSummary";
  /** the context the provider reported for this reply (calculateContextTokens); for a compaction, the tokensBefore it records */
  tokens: number | null;
}

const KINDS = ["usage", "compaction", "branchSummary"] as const;

/**
 * The points of a path, in path order, as parallel arrays: a deep path has hundreds of thousands of replies, and
 * as many point objects kept in the cache made a gigabyte heap collect for a second. Points are made when read.
 */
export class ContextSizes implements Iterable<ContextSizePoint> {
  private constructor(
    private readonly ids: readonly string[],
    private readonly indexes: readonly number[],
    /** NaN for none */
    private readonly tokenCounts: readonly number[],
    private readonly kinds: readonly number[],
  ) {}

  static of(points: Iterable<ContextSizePoint>): ContextSizes {
    const out = ContextSizes.builder();
    for (const p of points) out.push(p.entryId, p.index, KINDS.indexOf(p.kind), p.tokens);
    return out.done();
  }

  /** Collects points one by one. */
  static builder() {
    const ids: string[] = [];
    const indexes: number[] = [];
    const tokens: number[] = [];
    const kinds: number[] = [];
    return {
      push(id: string, index: number, kind: number, count: number | null) {
        ids.push(id);
        indexes.push(index);
        kinds.push(kind);
        tokens.push(count === null ? NaN : count);
      },
      done: () => new ContextSizes(ids, indexes, tokens, kinds),
    };
  }

  get length(): number {
    return this.ids.length;
  }

  at(i: number): ContextSizePoint {
    const tokens = this.tokenCounts[i]!;
    return { entryId: this.ids[i]!, index: this.indexes[i]!, kind: KINDS[this.kinds[i]!]!, tokens: Number.isNaN(tokens) ? null : tokens };
  }

  /** how many of the points lie before path position `end` */
  before(end: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.indexes[mid]! < end) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** the first `count` points */
  prefix(count: number): ContextSizes {
    return new ContextSizes(this.ids.slice(0, count), this.indexes.slice(0, count), this.tokenCounts.slice(0, count), this.kinds.slice(0, count));
  }

  /** these points, then `more` */
  concat(more: ContextSizes): ContextSizes {
    return new ContextSizes(
      this.ids.concat(more.ids),
      this.indexes.concat(more.indexes),
      this.tokenCounts.concat(more.tokenCounts),
      this.kinds.concat(more.kinds),
    );
  }

  /** how many replies' usage */
  get replies(): number {
    let n = 0;
    for (const kind of this.kinds) if (kind === 0) n++;
    return n;
  }

  *[Symbol.iterator](): Iterator<ContextSizePoint> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }
}

const sizesCache = new WeakMap<Session, { revision: number; byId: Map<string, KnownSizes> }>();

interface KnownSizes {
  sizes: ContextSizes;
  path: PathIndex;
}

/** Paths whose sizes are kept: the selection's and a few before it (each holds its path, up to hundreds of thousands of entries). */
const KEPT_SIZES = 4;

/**
 * contextSizes of the root → `id` path (by the session's reader), kept per tree revision: one walk of a deep path
 * per entry looked at, whether its content has been read yet or not (the sizes read no content). An entry on a
 * path whose sizes are known takes their prefix, and one below such a path walks only the part below it: the
 * points of a path are those of any path it extends, then its own.
 */
export function contextSizesAt(session: Session, id: string): ContextSizes {
  const revision = session.tree.revision;
  let cache = sizesCache.get(session);
  if (!cache || cache.revision !== revision) sizesCache.set(session, (cache = { revision, byId: new Map() }));
  let known = cache.byId.get(id);
  if (!known) {
    const path = session.pathIndex(id);
    known = { sizes: sizesFrom(path, cache.byId), path };
    if (cache.byId.size >= KEPT_SIZES) cache.byId.delete(cache.byId.keys().next().value!);
    cache.byId.set(id, known);
  }
  return known.sizes;
}

function sizesFrom(path: PathIndex, known: ReadonlyMap<string, KnownSizes>): ContextSizes {
  const length = path.size;
  const id = path.path.idAt(length - 1);
  if (id === undefined) return ContextSizes.of([]);
  let base: { at: number; sizes: ContextSizes } | null = null;
  for (const [other, k] of known) {
    // two paths that end at the same entry and are as long are the same (each is a chain of parents): a path
    // through `id` at the position its own path ends holds it as its prefix, and the other's path is this one's
    // prefix where it ends at the other
    if (k.path.indexOf(id) === length - 1) return k.sizes.prefix(k.sizes.before(length));
    const at = path.indexOf(other);
    if (at !== -1 && at === k.path.size - 1 && (base === null || at > base.at)) base = { at, sizes: k.sizes };
  }
  if (!base) return contextSizes(path.path);
  return base.sizes.concat(contextSizes(path.path, base.at + 1));
}

/**
 * The context's size along a path (root → node), as the providers reported
 * it: every assistant reply whose usage pi trusts (not aborted, no error, not
 * zero), and the compactions and branch summaries that cut it back; from
 * position `from` on (all of the path by default).
 */
export function contextSizes(path: TreePath, from = 0): ContextSizes {
  const out = ContextSizes.builder();
  for (let index = from; index < path.length; index++) {
    const type = path.typeAt(index);
    if (type === "branch_summary") out.push(path.idAt(index)!, index, 2, null);
    else if (type === "compaction") {
      const size = path.contextSizeAt(index);
      out.push(path.idAt(index)!, index, 1, Number.isNaN(size) ? null : size);
    } else if (type === "message") {
      const size = path.contextSizeAt(index);
      if (!Number.isNaN(size)) out.push(path.idAt(index)!, index, 0, size);
    }
  }
  return out.done();
}

/**
 * The points a chart `buckets` wide can show: per bucket of path positions the
 * reply with the smallest and the one with the largest context (in path order,
 * so the line keeps every peak and trough), every compaction and branch summary,
 * and the largest size of all (for the scale). A long session's path holds
 * hundreds of thousands of replies; a chart a few hundred pixels wide shows
 * no more than this.
 */
export function chartPoints(points: Iterable<ContextSizePoint>, pathLength: number, buckets: number): { points: ContextSizePoint[]; peak: number } {
  const out: ContextSizePoint[] = [];
  let peak = 0;
  let bucket = -1;
  let low: ContextSizePoint | null = null;
  let high: ContextSizePoint | null = null;
  const flush = () => {
    if (low && high) out.push(...(low === high ? [low] : low.index < high.index ? [low, high] : [high, low]));
    low = high = null;
  };
  for (const point of points) {
    if (point.tokens !== null && point.tokens > peak) peak = point.tokens;
    if (point.kind !== "usage") {
      flush();
      out.push(point);
      continue;
    }
    const at = pathLength <= 1 ? 0 : Math.floor((point.index / pathLength) * buckets);
    if (at !== bucket) {
      flush();
      bucket = at;
    }
    if (!low || point.tokens! < low.tokens!) low = point;
    if (!high || point.tokens! > high.tokens!) high = point;
  }
  flush();
  return { points: out, peak };
}

/** Whether pi would compact a context of `tokens` in a window of `contextWindow` (shouldCompact); null without a window. */
export function wouldCompact(tokens: number, contextWindow: number | null, settings: CompactionSettings): boolean | null {
  return contextWindow === null || contextWindow <= 0 ? null : shouldCompact(tokens, contextWindow, settings);
}

/** pi's verdict on compacting after a reply, and why. */
export interface AutoCompactCheck {
  /** true: pi compacts now; false: it does not; null: pi does not check here, or the window is unknown */
  verdict: boolean | null;
  /** the context size pi compares (null when it compares none) */
  tokens: number | null;
  reason: string;
}

/**
 * pi's threshold check after an assistant reply (AgentSession._checkCompaction
 * in pi-coding-agent 0.84, its "threshold" case) with `entry` as that reply:
 * the reply's own usage, or for an error or a zero usage the context's
 * estimate; nothing for an aborted reply or one older than the branch's
 * latest compaction. (pi also compacts when a provider reports a context
 * overflow: that is an error it reads from the reply's text, not a size.)
 */
export function autoCompactAfter(
  entry: TreeEntry,
  view: ModelView,
  path: TreePath,
  contextWindow: number | null,
  settings: CompactionSettings,
): AutoCompactCheck {
  const message = entry.type === "message" && isObject(entry.message) ? entry.message : null;
  if (message?.role !== "assistant") return { verdict: null, tokens: null, reason: "pi checks after an assistant reply; this entry is none" };
  if (!settings.enabled) return { verdict: false, tokens: null, reason: "auto-compaction is off" };
  if (message.stopReason === "aborted") return { verdict: false, tokens: null, reason: "pi does not check after an aborted reply" };
  let compaction: TreeEntry | null = null;
  for (let i = path.length - 1; i >= 0 && !compaction; i--) if (path.typeAt(i) === "compaction") compaction = path.at(i)!;
  const compactedAt = compaction ? new Date(String(compaction.timestamp)).getTime() : null;
  const olderThanCompaction = (m: JsonObject) => compactedAt !== null && typeof m.timestamp === "number" && m.timestamp <= compactedAt;
  if (olderThanCompaction(message)) return { verdict: false, tokens: null, reason: "the reply is older than the branch's latest compaction" };
  let tokens: number;
  const direct = isObject(message.usage) ? calculateContextTokens(message.usage) : 0;
  if (message.stopReason === "error" || !direct) {
    if (!view.tokens || view.tokens.lastUsageIndex === null) return { verdict: false, tokens: null, reason: "no reply on this path reports a usage pi trusts" };
    const usageMessage = view.context.messages[view.tokens.lastUsageIndex]!.message;
    if (usageMessage.role === "assistant" && olderThanCompaction(usageMessage))
      return { verdict: false, tokens: null, reason: "the last usage pi trusts predates the latest compaction" };
    tokens = view.tokens.tokens;
  } else tokens = direct;
  if (contextWindow === null || contextWindow <= 0) return { verdict: null, tokens, reason: "the model's context window is unknown" };
  const limit = contextWindow - settings.reserveTokens;
  const verdict = shouldCompact(tokens, contextWindow, settings);
  return { verdict, tokens, reason: `${tokens.toLocaleString("en-US")} tokens ${verdict ? ">" : "≤"} ${limit.toLocaleString("en-US")} (window − reserve)` };
}

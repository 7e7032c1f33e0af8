// The page's side of reading a session from parse.worker.ts: the light lines read into the index a slice per task
// (the page stays responsive however big the stream's chunks are), their light text kept for the tree to read
// entries again from (LightSessionReader.keepLightText), or the index restored from the server's snapshot and the
// lines only kept as they come. It reports what it finds; what comes of it is the load's (load-machine.ts).
import type { Session, SessionParser } from "@/lib/session";
import { LightSessionReader } from "@/lib/session/read/light-session";
import type { LineTexts } from "@/lib/session/read/line-texts";
import type { SnapshotParts } from "@/lib/session/read/object-snapshot";
import { framesSource, rangeSource } from "./byte-sources";
import type { SnapshotRestore } from "./load-machine";
import type { ParseReply } from "./parse-protocol";

type Queued = Extract<ParseReply, { type: "lines" | "end" | "schema" }>;

/** What the reading tells its load, in the order the replies came. */
export interface ReadingSink {
  /** whether the load still wants the lines: once not, the reading stops where it is */
  hearing(): boolean;
  slice(done: number, total: number): void;
  /** the end came, before the index is finished with it */
  end(reply: Extract<ParseReply, { type: "end" }>): void;
  indexed(parser: SessionParser, restored: boolean): void;
  schema(reply: Extract<ParseReply, { type: "schema" }>): void;
  /** reading threw: a bug (the core reports bad input as diagnostics) */
  bug(error: unknown): void;
  /** a slice's light text as the worker sent it, read: the worker checks it */
  handBack(light: Uint8Array): void;
}

/**
 * How long a task reads light text for (a stream chunk can be megabytes). A slice of time, not of bytes: what a
 * byte costs depends on its lines and on what else the cores run (a first open shares them with the server
 * making the file's index, and a fixed slice of bytes then took up to half a second).
 */
const SLICE_MS = 30;

/** Runs `run` in a task of its own, after whatever input and rendering are waiting. */
function nextTask(run: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => run();
  channel.port2.postMessage(null);
}

/** Entries up each path a session opens on that are read ahead: those its first drawing and context read. */
const SHOWN_AHEAD = 1024;

/**
 * The lines of the entries a restored session's first view reads: up the path from the leaf and from the entry
 * a link names (its context reads back to the last compaction, its graph the cards around it). What else it
 * reads before the lines come is read a frame at a time.
 */
function shownFirstLines(session: Session, entryId: string | null): number[] {
  const tree = session.tree;
  const lines: number[] = [];
  for (const id of new Set([session.leafId, entryId])) {
    if (id === null) continue;
    for (let slot = tree.slotOf(id), n = 0; slot >= 0 && n < SHOWN_AHEAD; slot = tree.parentSlot(slot), n++) lines.push(tree.lineAt(slot));
  }
  return lines;
}

export class SessionReading {
  // made at the first lines: a URL may turn out to be a share file, whose bytes are not the file's
  private reader: LightSessionReader | null = null;
  private parser: SessionParser | null = null;
  /** lines, the end and the schema check's notes, read in order, a slice of lines per task */
  private readonly queue: Queued[] = [];
  /** the index made room for the entries the file holds, judged from its first lines (LightSessionReader.expectFrom) */
  private sized = false;
  /** the end came and the reader was ended */
  private ended = false;
  /** a restored index's steps making its index of ids again */
  private ids: Generator<void, void, void> | null = null;
  /** per slice of lines: the light text as the worker sent it, handed back once read */
  private readonly sent = new WeakMap<object, Uint8Array>();

  /** `content`: where the session's content will be read from, asked when the first lines or the snapshot come */
  constructor(
    private readonly content: () => LineTexts,
    private readonly sink: ReadingSink,
  ) {}

  /** The index as far as it is made (restored, or finished at the end). */
  get index(): SessionParser | null {
    return this.parser;
  }

  add(reply: Queued): void {
    if (reply.type === "lines" && !reply.kept) {
      // the tree reads its entries again from the light text, so the page keeps it: a copy of its own size (the
      // worker's buffer has room to spare), and the worker gets its buffer back for the schema check
      this.sent.set(reply, reply.light);
      reply.light = reply.light.slice();
    }
    this.queue.push(reply);
    if (this.queue.length === 1) this.readNext();
  }

  /**
   * The server kept the index these lines make: it is restored now and the lines are kept as they come; with
   * where its frames are (`frames`: the kept index by range), it can be shown before they come.
   */
  restore(snapshot: SnapshotParts, frames: string | null): SnapshotRestore {
    const read = (this.reader = new LightSessionReader(this.content()));
    read.keepLightText();
    const early = frames ? read.restoreNow(snapshot, framesSource(frames), rangeSource(frames)) : null;
    if (!early) read.restoreFrom(snapshot);
    const tree = read.restoredTree;
    if (!tree) return { restored: "no" };
    this.parser = early;
    this.ids = tree.idIndexSteps();
    return early ? { restored: "early", checked: early.schemaCheckedAsRead !== null } : { restored: "later" };
  }

  /** The restored index makes its index of ids again while the lines come, a step per task; then `made`. */
  makeIds(made: () => void): void {
    const steps = this.ids;
    if (!steps) return;
    const step = () => {
      if (!this.sink.hearing()) return;
      if (!steps.next().done) return nextTask(step);
      made();
    };
    nextTask(step);
  }

  /** Reads ahead what a restored session's first view reads, from the kept index (LightSessionReader.readAhead). */
  readAhead(session: Session, entryId: string | null): Promise<void> {
    return this.reader?.readAhead(shownFirstLines(session, entryId)) ?? Promise.resolve();
  }

  /** The light text kept, as copies (the page keeps its own): for the worker to check when no check came with the index. */
  keptLights(): Uint8Array[] {
    return (this.reader?.keptLightText ?? []).map((light) => light.slice());
  }

  /** The lines of a session shown before they came will not come. */
  textStopped(): void {
    this.reader?.textStopped();
  }

  private readonly readNext = (): void => {
    if (!this.sink.hearing() || this.queue.length === 0) return;
    try {
      const reply = this.queue[0]!;
      if (reply.type === "lines") {
        this.readLines(reply);
        if (this.queue.length) nextTask(this.readNext);
        return;
      }
      if (reply.type === "end") {
        const read = (this.reader ??= new LightSessionReader());
        // (once: a restored index comes back here while it makes its ids)
        if (!this.ended) {
          this.ended = true;
          this.sink.end(reply);
          this.parser = read.end(reply.last);
        }
        // a restored index makes its index of ids again a step per task (the end stays first in the queue, so
        // what comes meanwhile waits for it)
        if (read.restoredIndex && !(this.ids ??= this.parser!.tree.idIndexSteps()).next().done) return nextTask(this.readNext);
        this.queue.shift();
        this.sink.indexed(this.parser!, read.restoredIndex);
      } else {
        this.queue.shift();
        this.sink.schema(reply);
      }
      this.readNext();
    } catch (error) {
      this.sink.bug(error);
    }
  };

  /** Reads what one task may of a slice of lines; the slice leaves the queue once read to its end. */
  private readLines(reply: Extract<Queued, { type: "lines" }>): void {
    if (!this.reader) {
      this.reader = new LightSessionReader(this.content());
      this.reader.keepLightText();
    }
    const until = performance.now() + SLICE_MS;
    let read: boolean;
    while (!(read = this.reader.pushSome(reply, 1)) && performance.now() < until);
    if (!read) return;
    if (!this.sized) this.sized = this.reader.expectFrom(reply.done, reply.total);
    this.queue.shift();
    const sent = this.sent.get(reply);
    if (sent) this.sink.handBack(sent);
    this.sink.slice(reply.done, reply.total);
  }
}

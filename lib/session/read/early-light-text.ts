import { LightFrameReader } from "./light-frames";
import type { LightFrameTable } from "./light-frame-table";
import { newlinesOf } from "./light-lines";
import type { ByteSource } from "./ranged-lines";

/** Bytes [start, end) of a kept light index, read at once: the tree's reads of its entries are synchronous. */
export type FrameBytes = (start: number, end: number) => Uint8Array;

/** A frame read early: its first line, where each of its lines starts in its light text (and where it ends). */
interface HeldFrame {
  first: number;
  starts: Int32Array;
  light: Uint8Array;
}

/**
 * What would read more of a session's entries before their text came than it was allowed (readingAtMost): it is
 * answered again once the text has come.
 */
export class TextComingError extends Error {
  constructor() {
    super("the session's text is still coming from the server: this is answered once it has come");
    this.name = "TextComingError";
  }
}

/**
 * The light text of lines whose frame has not come yet, read from the kept light index by frame. A session
 * restored from its snapshot is shown before its frames have all come (a big session's light text is hundreds
 * of megabytes); what it shows meanwhile reads the few entries it needs here, a frame at a time, and a frame read
 * here is let go once the stream has passed it (LightTextEntries.readEarly).
 */
export class EarlyLightText {
  private readonly frames = new Map<number, HeldFrame>();
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  /**
   * `last`: the final line without newline ("" if none), which no frame holds; `read` reads a frame at once (the
   * tree's reads are synchronous), `fetch` without waiting on the caller's thread (prefetch, readRefused)
   */
  constructor(
    private readonly table: LightFrameTable,
    private readonly last: string,
    private readonly read: FrameBytes,
    private readonly fetch: ByteSource = async (start, end) => read(start, end),
  ) {}

  /** frames a read was refused since readRefused last read them (readingAtMost) */
  private readonly refused = new Set<number>();
  /** frames being read by prefetch or readRefused */
  private readonly reading = new Map<number, Promise<void>>();

  /** frames that may still be read at once (readingAtMost), null for any number */
  private budget: number | null = null;
  private exceeded = false;
  private limitless = false;

  /** The text will not come (its stream failed): what waited for it reads here as it must, a frame at a time. */
  endLimits(): void {
    this.limitless = true;
  }

  /**
   * Runs `read` letting it read at most `frames` frames at once; a read past that throws TextComingError (which
   * `read` may catch: `exceeded` says it happened). What walks many entries waits for the text rather than read
   * it a frame at a time (a page's freeze).
   */
  readingAtMost<T>(frames: number, read: () => T): { value: T; exceeded: boolean } {
    if (this.limitless) return { value: read(), exceeded: false };
    const outer = { budget: this.budget, exceeded: this.exceeded };
    this.budget = frames;
    this.exceeded = false;
    try {
      const value = read();
      return { value, exceeded: this.exceeded };
    } finally {
      this.budget = outer.budget;
      this.exceeded ||= outer.exceeded;
    }
  }

  /** The light text of `line`, its newline left out. Throws when the index holds no such line or cannot be read. */
  text(line: number): string {
    if (line === this.table.lineCount + 1 && this.last) return this.last;
    const k = this.table.frameOf(line);
    if (k === -1) throw new Error(`the light index has no line ${line} (it holds ${this.table.lineCount})`);
    const frame = this.frames.get(k) ?? this.readFrame(k);
    const n = line - frame.first;
    return this.decoder.decode(frame.light.subarray(frame.starts[n]!, frame.starts[n + 1]! - 1));
  }

  /** Lets go of the frames whose lines all came in the stream: those up to `line`. */
  passed(line: number): void {
    this.passedLine = line;
    for (const [k, frame] of this.frames) if (frame.first + frame.starts.length - 2 <= line) this.frames.delete(k);
  }

  /** the last line the stream has brought (passed) */
  private passedLine = 0;

  /**
   * Reads ahead, without waiting on the page's thread, the frames that hold these lines (those not held yet): what
   * a page shows first, read before it is shown.
   */
  async prefetch(lines: readonly number[]): Promise<void> {
    const wanted = new Set<number>();
    for (const line of lines) {
      const k = this.table.frameOf(line);
      if (k !== -1) wanted.add(k);
    }
    await this.fetchFrames(wanted);
  }

  /** True when a read was refused (readingAtMost) since readRefused last read what was. */
  get wasRefused(): boolean {
    return this.refused.size > 0;
  }

  /**
   * Reads, without waiting on the caller's thread, the frames that reads were refused (readingAtMost) since the
   * last call, and those being read: an answer refused asks again once this resolves, and finds them.
   */
  async readRefused(): Promise<void> {
    const wanted = new Set(this.refused);
    this.refused.clear();
    for (const k of this.reading.keys()) wanted.add(k);
    await this.fetchFrames(wanted);
  }

  /** Reads frames `wanted` that are not held yet, each once however many ask for it. */
  private async fetchFrames(wanted: Iterable<number>): Promise<void> {
    const reads: Promise<void>[] = [];
    for (const k of wanted) {
      const { first, count } = this.table.linesOf(k);
      if (this.frames.has(k) || first + count - 1 <= this.passedLine) continue;
      let reading = this.reading.get(k);
      if (!reading) {
        const { start, end } = this.table.bytesOf(k);
        reading = this.fetch(start, end).then(
          (bytes) => {
            this.reading.delete(k);
            if (!this.frames.has(k)) this.hold(k, bytes);
          },
          (error: unknown) => {
            this.reading.delete(k);
            throw error;
          },
        );
        this.reading.set(k, reading);
      }
      reads.push(reading);
    }
    await Promise.all(reads);
  }

  private readFrame(k: number): HeldFrame {
    if (this.budget !== null) {
      if (this.budget <= 0) {
        this.exceeded = true;
        this.refused.add(k);
        throw new TextComingError();
      }
      this.budget--;
    }
    const { start, end } = this.table.bytesOf(k);
    return this.hold(k, this.read(start, end));
  }

  /** Keeps frame `k`, read as `bytes`. */
  private hold(k: number, bytes: Uint8Array): HeldFrame {
    const { start, end } = this.table.bytesOf(k);
    if (bytes.byteLength !== end - start)
      throw new Error(`the light index's frame at byte ${start} came back as ${bytes.byteLength} bytes, not ${end - start}`);
    let frames;
    try {
      frames = new LightFrameReader().push(bytes);
    } catch (error) {
      throw new Error(`the light index holds no frame of lines at byte ${start}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const [frame, ...more] = frames;
    if (frame?.type !== "lines" || more.length) throw new Error(`the light index holds no frame of lines at byte ${start}`);
    const { first, count } = this.table.linesOf(k);
    const light = frame.chunk.light;
    const newlines = newlinesOf(light);
    if (newlines.length !== count || newlines[count - 1]! + 1 !== light.length)
      throw new Error(`the light index's frame at byte ${start} holds other lines than its table says`);
    const starts = new Int32Array(count + 1);
    for (let n = 0; n < count; n++) starts[n + 1] = newlines[n]! + 1;
    const read = { first, starts, light };
    this.frames.set(k, read);
    return read;
  }
}

import { ElidedLines } from "./elided-lines";
import { RangedLines } from "./ranged-lines";
import type { LineTexts } from "./line-texts";
import type { EntrySource } from "../tree/entry-source";
import { LightReader, type LightChunk } from "./light-lines";
import { LightTextEntries } from "./light-text-entries";
import { LineReader } from "./lines";
import { SessionParser } from "./parse";
import type { SessionTree } from "../rules/session-tree";
import type { SnapshotParts } from "./object-snapshot";
import { EarlyLightText, type FrameBytes } from "./early-light-text";
import type { ByteSource } from "./ranged-lines";
import { keptIndex, restoreSession, type KeptIndex } from "./session-snapshot";

/**
 * Builds a session's index from light lines (light-lines.ts) as they come,
 * keeping the cut lines' bytes so the tree can read their content later.
 *
 * The light index serves every file pi reads as it is written. A v1/v2 file is
 * migrated as a whole and a v4 log keeps its own records: their entries are not
 * the lines' objects, so for those the index is built again from the full text.
 */
export class LightSessionReader {
  private parser = new SessionParser();
  /** the light text so far, for a file that must be read again in full; null once the header says it need not be */
  private texts: string[] | null = [];
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  /**
   * `lines`: where the changed lines' text is read from (their bytes kept in memory, unless a file can be read
   * again); `entries`: where the index reads entries again, keeping only the most recent (a file read again)
   */
  constructor(
    readonly lines: LineTexts = new ElidedLines(),
    entries?: EntrySource,
    keepEntries?: number,
  ) {
    this.parser.readCutLinesFrom(this.lines);
    if (entries) this.parser.tree.readEntriesFrom(entries, keepEntries);
  }

  /** the light text kept for the tree to read its entries again from (keepLightText) */
  private lightText: LightTextEntries | null = null;

  /**
   * The tree keeps only its last `keep` entry objects and reads others again from the light text, which is kept
   * (as bytes, outside the JS heap) instead. Before the first push. A file that does not read as light (v1, v2,
   * v4) is indexed again from its full text at the end, keeping its entries as before.
   */
  keepLightText(keep?: number): LightTextEntries {
    const source = new LightTextEntries();
    this.parser.tree.readEntriesFrom(source, keep);
    this.lightText = source;
    this.keep = keep;
    return source;
  }

  private keep: number | undefined;
  private wasRestored = false;

  /** The light text kept (keepLightText), as it came: what the worker checks when a restored index brought no check. */
  get keptLightText(): readonly Uint8Array[] {
    return this.lightText?.chunkList ?? [];
  }

  /** True once the index was restored from a snapshot (false: none was given, or it could not be restored). */
  get restoredIndex(): boolean {
    return this.wasRestored;
  }

  /** The restored index's tree (restoreFrom), before the lines have all come: its columns answer, its entries not yet. */
  get restoredTree(): SessionTree | null {
    return this.wasRestored ? this.parser.tree : null;
  }

  /**
   * The light lines pushed are those the index in `snapshot` (sessionSnapshot) was built from: the index is
   * restored now (a page makes its index of ids while the lines still come: idIndexSteps), and the lines are kept
   * as they come, not parsed; a snapshot that cannot be restored leaves them to be parsed. After keepLightText,
   * before the first push.
   */
  restoreFrom(snapshot: Uint8Array | SnapshotParts): void {
    if (!this.lightText) throw new Error("LightSessionReader.restoreFrom: the light text must be kept (keepLightText) to restore an index");
    const restored = this.restored(snapshot);
    if (restored) this.adopt(restored);
  }

  /** From now on the index is `restored`, and the lines pushed are only kept. */
  private adopt(restored: SessionParser): void {
    this.parser = restored;
    this.wasRestored = true;
    this.texts = null;
  }

  private early: EarlyLightText | null = null;

  /**
   * Restores the index in `snapshot` now, as restoreFrom does, and lets it be read before the light lines it was
   * made from come, when the snapshot says where they are (made by SnapshotBuilder): an entry read before its line
   * came is read from its frame with `read` at once, or with `fetch` ahead of time (EarlyLightText), a changed
   * line's content from where the snapshot says it is in the file. Null, with nothing changed, when it cannot be:
   * then restoreFrom. After keepLightText, before the first push.
   */
  restoreNow(snapshot: Uint8Array | SnapshotParts, read: FrameBytes, fetch?: ByteSource): SessionParser | null {
    const text = this.lightText;
    if (!text) throw new Error("LightSessionReader.restoreNow: the light text must be kept (keepLightText) to restore an index");
    if (!(this.lines instanceof RangedLines)) return null;
    let kept: KeptIndex;
    try {
      kept = keptIndex(snapshot);
    } catch {
      return null;
    }
    if (!kept.offsets || !kept.frames) return null;
    const parser = restoreSession(kept, this.lines, text, this.keep);
    this.lines.adoptIndex(kept.offsets);
    this.early = new EarlyLightText(kept.frames, kept.last, read, fetch);
    text.readEarly(this.early);
    this.adopt(parser);
    return parser;
  }

  /** The lines stopped coming for good after restoreNow (the stream failed): see LightTextEntries.textStopped. */
  textStopped(): void {
    this.lightText?.textStopped();
  }

  /**
   * After restoreNow: reads the frames that hold these lines ahead (not waiting on the page's thread), so that
   * showing them reads nothing at once. A frame that cannot be read is read again when asked for.
   */
  async readAhead(lines: readonly number[]): Promise<void> {
    await this.early?.prefetch(lines).catch(() => undefined);
  }

  /** The tree keeps each entry's time (SessionTree.keepTimes): what makes a snapshot does. Before the first push. */
  keepTimes(): void {
    this.parser.tree.keepTimes();
  }

  /**
   * `readBytes` of the file's `totalBytes` have been pushed: once a thousand entries have come, the index makes
   * room at once for as many as the whole file holds at that rate (SessionTree.expectEntries). True once there
   * is nothing left to decide (room was made, the file is read, or the index will be restored).
   */
  expectFrom(readBytes: number, totalBytes: number): boolean {
    if (this.wasRestored || readBytes >= totalBytes) return true;
    const tree = this.parser.tree;
    if (readBytes <= 0 || tree.entryCount < 1024) return false;
    tree.expectEntries(Math.ceil(((tree.entryCount * totalBytes) / readBytes) * 1.05));
    return true;
  }

  /** Checks each entry line against pi's schemas as it is read (SessionParser.checkSchemaAsRead). Before the first push. */
  checkSchemaAsRead(): void {
    this.parser.checkSchemaAsRead();
  }

  /** the chunk being read, and how far */
  private current: { chunk: LightChunk; at: number } | null = null;

  push(chunk: LightChunk): void {
    while (!this.pushSome(chunk, Infinity));
  }

  /**
   * Reads about `budget` more bytes of the chunk's light text (whole pieces, at least one); true once the
   * chunk is read to its end. The page reads a chunk over several tasks so that none takes long, whatever
   * size the stream's chunks come in.
   */
  pushSome(chunk: LightChunk, budget: number): boolean {
    if (this.current?.chunk !== chunk) {
      this.lines.add(chunk);
      this.lightText?.add(chunk.light, chunk.newlines);
      this.current = { chunk, at: 0 };
    }
    const light = chunk.light;
    if (this.wasRestored) {
      this.current = null;
      return true;
    }
    const start = this.parse(light, this.current.at, this.current.at + budget);
    this.current.at = start;
    if (start < light.length) return false;
    this.current = null;
    if (this.texts && this.parser.formatKnown) {
      if (this.parser.readsAsLight) this.texts = null;
      // read again whole at the end, from the changed lines' bytes: they must all be kept
      else if (this.lines instanceof RangedLines) this.lines.retainAll();
    }
    return true;
  }

  /** Parses light text from `start` up to `stop` or a little past it (whole pieces); returns where it stopped. */
  private parse(light: Uint8Array, start: number, stop: number): number {
    // decoded a few lines at a time: in Chromium a megabyte-long string takes ten times as long to make as
    // the same text in small strings (a fresh large object, its pages zeroed as they are first written)
    while (start < light.length && start < stop) {
      const end = pieceEnd(light, start);
      const text = this.decoder.decode(light.subarray(start, end));
      this.texts?.push(text);
      this.parser.push(text);
      start = end;
    }
    return start;
  }

  /**
   * The index from the snapshot; one that cannot be restored (damaged, or kept by other code) costs the time to
   * read the lines as they come, never the session.
   */
  private restored(snapshot: Uint8Array | SnapshotParts): SessionParser | null {
    try {
      return restoreSession(snapshot, this.lines, this.lightText!, this.keep);
    } catch {
      return null;
    }
  }

  /** `last`: the final line without newline, whole ("" if none). */
  end(last: string): SessionParser {
    if (this.wasRestored) {
      this.early = null;
      this.lightText!.end(last);
      if (this.lines instanceof RangedLines) this.lines.settle();
      return this.parser;
    }
    const parser = this.parser;
    parser.push(last);
    parser.end();
    this.lightText?.end(last);
    const texts = this.texts;
    this.texts = null;
    if (this.lines instanceof RangedLines) this.lines.settle();
    if (this.lines.size === 0 || this.parser.readsAsLight || !texts) return parser;
    const whole = new SessionParser();
    const reader = new LineReader();
    let line = 0;
    for (const text of texts) reader.scan(text, (lightLine) => whole.push(`${this.lines.has(++line) ? this.lines.text(line) : lightLine}\n`));
    whole.push(last);
    return whole.end();
  }
}

/** Bytes of light text decoded at once: well under V8's large-object size. */
const PIECE = 1 << 15;
const NEWLINE = 0x0a;

/** Where the piece of `light` that starts at `start` ends: after the last newline within PIECE bytes, else after the next one. */
function pieceEnd(light: Uint8Array, start: number): number {
  if (light.length - start <= PIECE) return light.length;
  const within = light.lastIndexOf(NEWLINE, start + PIECE - 1);
  if (within >= start) return within + 1;
  const next = light.indexOf(NEWLINE, start + PIECE);
  return next === -1 ? light.length : next + 1;
}

/**
 * Reads a whole file's bytes as the viewer's worker and page do, in `chunkBytes` slices; `keepEntries`: the
 * tree keeps that many entry objects and reads the others again from the kept light text (keepLightText).
 */
export function readLight(bytes: Uint8Array, chunkBytes = 1 << 20, minBytes = chunkBytes, lines?: LineTexts, keepEntries?: number): SessionParser {
  const session = new LightSessionReader(lines);
  if (keepEntries !== undefined) session.keepLightText(keepEntries);
  return readLightWith(session, bytes, chunkBytes, minBytes);
}

/** Reads a whole file's bytes into `session` (set up as its caller needs) as readLight does. */
export function readLightWith(session: LightSessionReader, bytes: Uint8Array, chunkBytes = 1 << 20, minBytes = chunkBytes): SessionParser {
  const reader = new LightReader(minBytes);
  for (let at = 0; at < bytes.byteLength; at += chunkBytes) {
    const chunk = reader.push(bytes.subarray(at, at + chunkBytes));
    if (chunk) session.push(chunk);
  }
  const rest = reader.flush();
  if (rest) session.push(rest);
  return session.end(reader.end());
}

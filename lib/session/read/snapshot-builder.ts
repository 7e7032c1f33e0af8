import type { EntrySource } from "../tree/entry-source";
import { LightFrameTable } from "./light-frame-table";
import { LightFrameReader } from "./light-frames";
import { newlinesOf } from "./light-lines";
import { LightSessionReader } from "./light-session";
import { RangedLines } from "./ranged-lines";
import { sessionSnapshot } from "./session-snapshot";

const NOT_READ_AGAIN: EntrySource = {
  entry(_slot, line) {
    throw new Error(`the entry on line ${line} was asked for again while its index was being made`);
  },
};

/**
 * Makes the snapshot of the index a kept light index's frames make (light-frames.ts), as the server does once it
 * keeps one: pi's schemas checked as the lines are read, and the order of every branch point's children known
 * (sorting them reads each child's timestamp: a page that restored the index would read entries all over the
 * file for its first drawing), where each changed line is in the file and each frame in the kept index. Given
 * the kept index's bytes in order, in pieces of any size.
 */
export class SnapshotBuilder {
  // the frames bring the bytes of every line whose error message the reader needs; nothing else is read from the file
  private readonly lines = new RangedLines(() => Promise.reject(new Error("a snapshot is made from the light index alone")));
  // building an index reads no entry again (should that change, the build fails and the page reads the lines):
  // what builds it keeps none of a big file's light text meanwhile
  private readonly reader = new LightSessionReader(this.lines, NOT_READ_AGAIN);
  private readonly frames = new LightFrameReader();
  private readonly table = new LightFrameTable();
  private last: string | null = null;

  constructor() {
    // checked here, kept in the snapshot: the page that restores it checks nothing
    this.reader.checkSchemaAsRead();
    this.reader.keepTimes();
  }

  push(bytes: Uint8Array): void {
    for (const frame of this.frames.push(bytes)) {
      if (frame.type === "lines") {
        this.reader.push(frame.chunk);
        this.table.add(frame.at, frame.bytes, newlinesOf(frame.chunk.light).length);
      } else if (frame.type === "end") this.last = new TextDecoder("utf-8", { ignoreBOM: true }).decode(frame.last);
    }
  }

  /** The snapshot, or null when the frames did not end or make an index that is not kept (not read as light lines). */
  end(): Uint8Array | null {
    if (this.last === null) return null;
    const parser = this.reader.end(this.last);
    if (!parser.readsAsLight) return null;
    parser.tree.sortChildren();
    // where each changed line and each frame is: a page shows the index before the frames have come
    const offsets = this.lines.offsetIndex;
    offsets.trim();
    return sessionSnapshot(parser, { offsets, frames: this.table, last: this.last });
  }
}

import { closeSync, openSync, readSync } from "node:fs";
import type { LightChunk } from "@/lib/session/read/light-lines";
import { OffsetLineTexts } from "@/lib/session/read/line-offsets";
import type { LineTexts } from "@/lib/session/read/line-texts";

/**
 * The changed lines' text read again from the file, by byte range, when it is
 * needed: a session larger than memory is indexed from its light lines while
 * none of its bytes are kept. Node reads a file synchronously, so every line is
 * ready.
 *
 * The file must not change under it: a session file only grows (pi appends),
 * and what was indexed stays where it was.
 */
export class FileLineTexts extends OffsetLineTexts implements LineTexts {
  private fd: number | null;
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  readonly onDemand = false;

  constructor(private readonly file: string) {
    super();
    this.fd = openSync(file, "r");
  }

  add(chunk: Pick<LightChunk, "cut" | "offsets">): void {
    this.index.add(chunk);
  }

  ready(): boolean {
    return true;
  }

  load(): Promise<void> {
    return Promise.resolve();
  }

  text(line: number): string {
    const slot = this.index.find(line);
    if (slot === -1) throw new Error(`line ${line} was written as it is`);
    if (this.fd === null) throw new Error(`${this.file} is closed: line ${line} cannot be read again`);
    const length = this.index.length(slot);
    const offset = this.index.offset(slot);
    const bytes = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const n = readSync(this.fd, bytes, read, length - read, offset + read);
      if (n === 0) throw new Error(`${this.file} is shorter than when it was read: line ${line} is gone`);
      read += n;
    }
    return this.decoder.decode(bytes);
  }

  /** Lets the file go: content can no longer be read. */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

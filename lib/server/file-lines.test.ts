import { describe, expect, it } from "vitest";
import { CHUNK, fileLines, type FileLine, type PositionalReader } from "./file-lines";

/** A file made of pieces, some only a byte repeated: a file of gigabytes that takes no memory and no disk. */
function virtualFile(pieces: readonly (string | { byte: number; length: number })[]): PositionalReader & { size: number } {
  let size = 0;
  const spans = pieces.map((piece) => {
    const span =
      typeof piece === "string"
        ? { start: size, bytes: Buffer.from(piece), length: Buffer.byteLength(piece), byte: 0 }
        : { start: size, bytes: null, ...piece };
    size += span.length;
    return span;
  });
  return {
    size,
    async read(buffer, offset, length, position) {
      let written = 0;
      for (const span of spans) {
        const from = Math.max(position + written, span.start);
        const to = Math.min(position + length, span.start + span.length);
        if (from >= to || from !== position + written) continue;
        if (span.bytes) span.bytes.copy(buffer, offset + written, from - span.start, to - span.start);
        else buffer.fill(span.byte, offset + written, offset + written + (to - from));
        written += to - from;
      }
      return { bytesRead: written };
    },
  };
}

async function linesOf(file: PositionalReader, from = 0, maxLine = 1024): Promise<(Omit<FileLine, "bytes"> & { text: string | null })[]> {
  const out = [];
  for await (const { bytes, ...line } of fileLines(file, from, maxLine)) out.push({ ...line, text: bytes && bytes.toString() });
  return out;
}

describe("fileLines", () => {
  it("gives each line with where it starts and its length, the last one not complete without its newline", async () => {
    const file = virtualFile(["one\n\ntwo", "\nthree"]);
    expect(await linesOf(file)).toEqual([
      { text: "one", offset: 0, length: 3, complete: true },
      { text: "", offset: 4, length: 0, complete: true },
      { text: "two", offset: 5, length: 3, complete: true },
      { text: "three", offset: 9, length: 5, complete: false },
    ]);
    expect(await linesOf(file, 5)).toEqual([
      { text: "two", offset: 5, length: 3, complete: true },
      { text: "three", offset: 9, length: 5, complete: false },
    ]);
  });

  it("joins a line that spans chunks", async () => {
    const file = virtualFile(["a\n", { byte: 0x62, length: 2 * CHUNK + 5 }, "\nc\n"]);
    const lines = await linesOf(file, 0, 4 * CHUNK);
    expect(lines.map((line) => [line.offset, line.length, line.text?.length])).toEqual([
      [0, 1, 1],
      [2, 2 * CHUNK + 5, 2 * CHUNK + 5],
      [2 * CHUNK + 8, 1, 1],
    ]);
  });

  it("passes over a line longer than the limit, its length known, the lines around it whole", async () => {
    for (const maxLine of [100, CHUNK + 10]) {
      const file = virtualFile(["before\n", { byte: 0x78, length: maxLine + 1 }, "\nafter\n", { byte: 0x79, length: maxLine + 1 }]);
      expect(await linesOf(file, 0, maxLine)).toEqual([
        { text: "before", offset: 0, length: 6, complete: true },
        { text: null, offset: 7, length: maxLine + 1, complete: true },
        { text: "after", offset: maxLine + 9, length: 5, complete: true },
        { text: null, offset: maxLine + 15, length: maxLine + 1, complete: false },
      ]);
      // a line of exactly the limit is read
      expect((await linesOf(virtualFile([{ byte: 0x78, length: maxLine }, "\n"]), 0, maxLine))[0]!.text).toHaveLength(maxLine);
    }
  });

  it("reads through a line of gigabytes holding a chunk or two of it, never the line", async () => {
    const huge = 5 * 1024 * 1024 * 1024;
    const file = virtualFile(['{"type":"session"}\n', { byte: 0x61, length: huge }, '\n{"id":"after"}']);
    // the memory Buffers hold, as the reader asks for each chunk: gathered pieces of the line could not be let go
    let most = 0;
    const watched: PositionalReader = {
      read(...args) {
        most = Math.max(most, process.memoryUsage().arrayBuffers);
        return file.read(...args);
      },
    };
    expect(await linesOf(watched, 0, CHUNK)).toEqual([
      { text: '{"type":"session"}', offset: 0, length: 18, complete: true },
      { text: null, offset: 19, length: huge, complete: true },
      { text: '{"id":"after"}', offset: 19 + huge + 1, length: 14, complete: false },
    ]);
    expect(most).toBeLessThan(huge / 10);
  });
});

import { ElidedLines, LightReader, type LightChunk } from "./light-lines";
import { LineReader } from "./lines";
import { CURRENT_VERSION, SessionParser } from "./parse";

/**
 * Builds a session's index from light lines (light-lines.ts) as they come,
 * keeping the cut lines' bytes so the tree can read their content later.
 *
 * The light index serves every file pi reads as it is written. A v1/v2 file is
 * migrated as a whole and a v4 log keeps its own records: their entries are not
 * the lines' objects, so for those the index is built again from the full text.
 */
export class LightSessionReader {
  readonly lines = new ElidedLines();
  private readonly parser = new SessionParser();
  /** the light text so far, for a file that must be read again in full */
  private texts: string[] = [];
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  constructor() {
    this.parser.readCutLinesFrom(this.lines);
  }

  push(chunk: LightChunk): void {
    this.lines.add(chunk);
    const text = this.decoder.decode(chunk.light);
    this.texts.push(text);
    this.parser.push(text);
  }

  /** `last`: the final line without newline, whole ("" if none). */
  end(last: string): SessionParser {
    const parser = this.parser;
    parser.push(last);
    parser.end();
    const texts = this.texts;
    this.texts = [];
    if (this.lines.size === 0 || (parser.sourceVersion === CURRENT_VERSION && !parser.isV4Log)) return parser;
    const whole = new SessionParser();
    const reader = new LineReader();
    let line = 0;
    for (const text of texts) reader.scan(text, (lightLine) => whole.push(`${this.lines.has(++line) ? this.lines.text(line) : lightLine}\n`));
    whole.push(last);
    return whole.end();
  }
}

/** Reads a whole file's bytes as the viewer's worker does, in `chunkBytes` slices. */
export function readLight(bytes: Uint8Array, chunkBytes = 1 << 20, minBytes = chunkBytes): SessionParser {
  const reader = new LightReader(minBytes);
  const session = new LightSessionReader();
  for (let at = 0; at < bytes.byteLength; at += chunkBytes) {
    const chunk = reader.push(bytes.subarray(at, at + chunkBytes));
    if (chunk) session.push(chunk);
  }
  const rest = reader.flush();
  if (rest) session.push(rest);
  return session.end(reader.end());
}

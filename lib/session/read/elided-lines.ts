import { CUT_FIELDS, LineForm, type LightChunk } from "./light-lines";
import type { LineTexts } from "./line-texts";

/** Line texts from the raw bytes of the changed lines, kept in memory (a browser's page: a File is not read synchronously). */
export class ElidedLines implements LineTexts {
  private readonly at = new Map<number, { raw: Uint8Array; start: number; end: number; cut: boolean }>();
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private cutLines = 0;

  add(chunk: Pick<LightChunk, "raws" | "cut" | "offsets">): void {
    const { raws, cut } = chunk;
    for (let i = 0; i < cut.length; i += CUT_FIELDS) {
      // a line whose bytes did not come (the server's light index keeps none but broken lines'): read elsewhere
      if (cut[i + 1]! < 0) continue;
      const isCut = cut[i + 4] === LineForm.Cut;
      this.at.set(cut[i]!, { raw: raws[cut[i + 1]!]!, start: cut[i + 2]!, end: cut[i + 3]!, cut: isCut });
      if (isCut) this.cutLines++;
    }
  }

  /** whether the line's light text differs from its text */
  has(line: number): boolean {
    return this.at.has(line);
  }

  /** whether the line's light text has cut strings (its entry's content must be read here) */
  isCut(line: number): boolean {
    return this.at.get(line)?.cut === true;
  }

  /** lines whose light text differs */
  get size(): number {
    return this.at.size;
  }

  /** lines with cut strings */
  get cutCount(): number {
    return this.cutLines;
  }

  readonly onDemand = false;

  ready(): boolean {
    return true;
  }

  load(): Promise<void> {
    return Promise.resolve();
  }

  byteLength(line: number): number | null {
    const at = this.at.get(line);
    return at ? at.end - at.start : null;
  }

  /** The line as written (decoded as the whole file would be); throws for a line whose light text is the same. */
  text(line: number): string {
    const at = this.at.get(line);
    if (!at) throw new Error(`line ${line} was written as it is`);
    return this.decoder.decode(at.raw.subarray(at.start, at.end));
  }
}

/** One physical line, read: all a worker can work out without the session's state. */
export type ReadLine = { kind: "blank" } | { kind: "value"; value: unknown } | { kind: "invalid"; reason: string; bom: boolean };

/** Classify one line the way pi does: whitespace-only is blank, else JSON or not. */
export function readLine(text: string): ReadLine {
  if (text.trim() === "") return BLANK;
  try {
    return { kind: "value", value: JSON.parse(text) };
  } catch (error) {
    return { kind: "invalid", reason: error instanceof Error ? error.message : String(error), bom: text.charCodeAt(0) === 0xfeff };
  }
}

const BLANK: ReadLine = Object.freeze({ kind: "blank" }) as ReadLine;

/**
 * Splits text chunks of any size into lines on "\n" (a "\r" before it is JSON
 * whitespace, as pi tolerates it) and reads each; an incomplete last line is
 * held until more text arrives or the input ends.
 */
export class LineReader {
  /** pieces of the incomplete last line, joined only once its newline arrives (no quadratic concatenation) */
  private parts: string[] = [];

  push(chunk: string): ReadLine[] {
    const out: ReadLine[] = [];
    this.scan(chunk, (text) => out.push(readLine(text)));
    return out;
  }

  /** Call `onLine` with the text of each line this chunk completes (no per-line allocation of our own). */
  scan(chunk: string, onLine: (text: string) => void): void {
    let nl = chunk.indexOf("\n");
    if (nl === -1) {
      if (chunk.length > 0) this.parts.push(chunk);
      return;
    }
    let start = 0;
    if (this.parts.length > 0) {
      this.parts.push(chunk.slice(0, nl));
      const text = this.parts.join("");
      this.parts = [];
      onLine(text);
      start = nl + 1;
      nl = chunk.indexOf("\n", start);
    }
    while (nl !== -1) {
      onLine(chunk.slice(start, nl));
      start = nl + 1;
      nl = chunk.indexOf("\n", start);
    }
    if (start < chunk.length) this.parts.push(chunk.slice(start));
  }

  get heldBack(): string {
    return this.parts.join("");
  }

  /** The final line if the input did not end with a newline, else null. */
  end(): ReadLine | null {
    const last = this.parts.join("");
    this.parts = [];
    return last.length > 0 ? readLine(last) : null;
  }
}

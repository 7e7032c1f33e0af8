// Whether a JSON line names a key twice in one object. JSON.parse keeps the last of the two, so redaction,
// which sees only the parsed value, never sees the first one's value: a redacted share must not carry that
// line's bytes. Only for text JSON.parse has accepted.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the quote closing the string that opens at `start`. */
function stringEnd(line: string, start: number): number {
  for (let at = start + 1; ; at++) {
    at = line.indexOf('"', at);
    let backslashes = 0;
    while (line.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

export function hasDuplicateKeys(line: string): boolean {
  // per open container: an object's keys so far, or null for an array
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(line, i);
      if (expectKey) {
        const raw = line.slice(i, end + 1);
        // "a" and "\u0061" are the same key
        const key = raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        const keys = open[open.length - 1]!;
        if (keys.has(key)) return true;
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b) {
      open.push(new Set());
      expectKey = true;
    } else if (c === 0x5b) {
      open.push(null);
      expectKey = false;
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
      expectKey = false;
    } else if (c === 0x2c) expectKey = open[open.length - 1] != null;
  }
  return false;
}

// An entry's words as PostgreSQL's tsvector input takes them: each word once with where it stands (1 for the
// first word), so that a phrase is a `<->` query the index answers, not lines read and checked one by one. Words
// hold letters, digits and "_" only (searchWords), none of which tsvector input quotes.
//
// A tsvector keeps no position past MAX_POSITION and no more than MAX_POSITIONS of one word: an entry past either
// keeps its words without positions and is `unplaced` (a phrase is checked on its line). A word longer than a
// tsvector holds, or words past its size, are left out and the entry is `partial` (every search checks it on its
// line).

/** PostgreSQL keeps no word longer than this (bytes) in a tsvector. */
const MAX_WORD_BYTES = 2046;
/** The highest position a tsvector keeps (later ones are cut to it). */
export const MAX_POSITION = 16383;
/** The most positions a tsvector keeps of one word. */
export const MAX_POSITIONS = 256;
/** What this project lets a tsvector hold, words and positions together (PostgreSQL's own limit is 1 MiB). */
const MAX_WORDS_BYTES = 1_000_000;
/** A word this long in UTF-16 units or shorter is at most 3 bytes a unit in UTF-8: within MAX_WORD_BYTES. */
const SURELY_FITS = 682;

export const fitsTsvector = (word: string) => Buffer.byteLength(word, "utf8") <= MAX_WORD_BYTES;

export interface TsvectorText {
  /** tsvector input (null: no word) */
  text: string | null;
  /** some words were left out */
  partial: boolean;
  /** every word is held, without positions */
  unplaced: boolean;
}

export function tsvectorText(words: readonly string[]): TsvectorText {
  const at = new Map<string, number[]>();
  words.forEach((word, i) => {
    const positions = at.get(word);
    if (positions) positions.push(i + 1);
    else at.set(word, [i + 1]);
  });
  if (at.size === 0) return { text: null, partial: false, unplaced: false };
  let most = 0;
  let short = true;
  let placed = words.length <= MAX_POSITION;
  for (const [word, positions] of at) {
    // each word is stored with a count and two bytes a position, aligned to two bytes
    most += 3 * word.length + 3 + 2 * positions.length;
    short &&= word.length <= SURELY_FITS;
    placed &&= positions.length <= MAX_POSITIONS;
  }
  if (short && most <= MAX_WORDS_BYTES) {
    let text = "";
    for (const [word, positions] of at) text += `${text ? " " : ""}${word}${placed ? `:${positions.join(",")}` : ""}`;
    return { text, partial: false, unplaced: !placed };
  }
  // measured: long words, or more than the quick sum allows
  let exact = 0;
  let fits = true;
  for (const [word, positions] of at) {
    exact += Buffer.byteLength(word, "utf8") + 3 + 2 * positions.length;
    fits &&= fitsTsvector(word);
  }
  if (fits && placed && exact <= MAX_WORDS_BYTES)
    return { text: [...at].map(([word, positions]) => `${word}:${positions.join(",")}`).join(" "), partial: false, unplaced: false };
  const kept: string[] = [];
  let bytes = 0;
  let partial = false;
  for (const word of at.keys()) {
    const size = Buffer.byteLength(word, "utf8");
    if (!fitsTsvector(word) || bytes + size > MAX_WORDS_BYTES) {
      partial = true;
      continue;
    }
    bytes += size;
    kept.push(word);
  }
  return { text: kept.length ? kept.join(" ") : null, partial, unplaced: !partial };
}

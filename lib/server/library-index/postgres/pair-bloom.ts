// Which pairs of words stand side by side in an entry, as a Bloom filter the push keeps beside its words: a phrase
// search reads the line of an entry holding the phrase's words only if the filter says each pair of them may stand
// there in order. The words' tsvector holds no positions (they would double what it takes and the push's time), so
// without it a phrase of two common words read thousands of lines to find a few hits.
//
// A pair is a word and the first PREFIX_UNITS UTF-16 units of the next: a phrase's last word may be a prefix of
// at least that many (isPrefixWord), and an entry's word that it begins starts with the same units. The filter
// says "no" only when a pair is absent; a "maybe" is checked on the line as before.

/** How much of the second word names a pair: MIN_PREFIX code points are at least this many UTF-16 units. */
const PREFIX_UNITS = 3;
/** Bits of filter per pair, and the bits a pair sets: about one "maybe" in twenty for an absent pair. */
const BITS_PER_PAIR = 8;
const MIN_BITS = 64;
/**
 * Past this the filter fills up instead of growing. A long tool output is where two common words most often both
 * are, and its line is the longest to read: its filter grows with it (a tenth of the line's size or so, in TOAST).
 */
const MAX_BITS = 1 << 17;

const fnv = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
};

const mix = (hash: number): number => {
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
};

/** The two bits (as unbounded numbers, taken modulo a filter's size) that the pair (first, the next word's start) sets. */
function pairBits(first: number, next: number): [number, number] {
  const one = mix(first ^ Math.imul(next, 0x9e3779b1));
  return [one, mix(one ^ 0x5bd1e995)];
}

/** The filter of the pairs of `words` (in the order they stand), or null when there is no pair. */
export function pairBloom(words: readonly string[]): Buffer | null {
  if (words.length < 2) return null;
  const whole = new Map<string, number>();
  const start = new Map<string, number>();
  const hashes = new Uint32Array(words.length);
  const starts = new Uint32Array(words.length);
  words.forEach((word, i) => {
    let hash = whole.get(word);
    if (hash === undefined) whole.set(word, (hash = fnv(word)));
    hashes[i] = hash;
    const head = word.slice(0, PREFIX_UNITS);
    let headHash = start.get(head);
    if (headHash === undefined) start.set(head, (headHash = fnv(head)));
    starts[i] = headHash;
  });
  let bits = MIN_BITS;
  while (bits < (words.length - 1) * BITS_PER_PAIR && bits < MAX_BITS) bits *= 2;
  const filter = Buffer.alloc(bits / 8);
  for (let i = 0; i + 1 < words.length; i++)
    for (const bit of pairBits(hashes[i]!, starts[i + 1]!)) {
      const at = bit & (bits - 1);
      filter[at >> 3] = filter[at >> 3]! | (1 << (at & 7));
    }
  return filter;
}

/** The bits every phrase's pairs set, for `get_bit` over a row's filter: each an unsigned 32-bit number. */
export function phraseBits(terms: readonly (readonly string[])[]): number[] {
  const bits: number[] = [];
  for (const term of terms) for (let i = 0; i + 1 < term.length; i++) bits.push(...pairBits(fnv(term[i]!), fnv(term[i + 1]!.slice(0, PREFIX_UNITS))));
  return [...new Set(bits)];
}

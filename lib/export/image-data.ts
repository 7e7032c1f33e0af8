/**
 * Whether a string is an image's bytes in base64: what redaction leaves alone in an image block. Rules find
 * text someone wrote; in an image's encoding a match is a coincidence (a three-letter literal occurs in about
 * a third of 100 KB images), and masking it would break the picture without hiding anything, while a secret
 * shown in a screenshot is pixels, which no text rule reads (dropping images is the way to leave those out).
 * Only real base64 of a known image format counts, so an "image" block cannot carry text past the rules.
 */

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Leading bytes of the formats pi reads and sends (PNG, JPEG, GIF, WebP); null matches any byte. */
const SIGNATURES: readonly (readonly (number | null)[])[] = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0xff, 0xd8, 0xff],
  [0x47, 0x49, 0x46, 0x38],
  [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50],
];

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The first 12 bytes the base64 text encodes (16 characters' worth). */
function leadingBytes(text: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i + 3 < Math.min(text.length, 16); i += 4) {
    const n = [0, 1, 2, 3].reduce((acc, k) => (acc << 6) | Math.max(0, ALPHABET.indexOf(text[i + k]!)), 0);
    bytes.push((n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  }
  return bytes;
}

export function isImageData(text: string): boolean {
  if (text.length < 16 || !BASE64.test(text)) return false;
  const bytes = leadingBytes(text);
  return SIGNATURES.some((signature) => signature.every((byte, i) => byte === null || bytes[i] === byte));
}

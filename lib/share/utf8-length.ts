// The UTF-8 size of a text without encoding it: a session's text runs to 100 MB and more, and a copy of it
// only to be measured is a copy of that size.

export function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      // a surrogate pair: 4 bytes for 2 UTF-16 units
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

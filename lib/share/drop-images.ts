// Images are most of the bytes of many sessions (screenshots, base64 already). A sender may drop them to
// shrink a share file; each becomes a text block that says what was there, so the transcript still reads
// right and the entry keeps its place and id.

export interface DroppedImages {
  dropped: number;
  /** base64 characters removed: what the file shrinks by before compression */
  bytes: number;
}

function isImageBlock(value: Record<string, unknown>): value is { type: "image"; data: string; mimeType?: unknown } {
  return value.type === "image" && typeof value.data === "string";
}

function note(image: { data: string; mimeType?: unknown }): { type: "text"; text: string } {
  const kib = Math.round((image.data.length * 3) / 4 / 1024);
  const mime = typeof image.mimeType === "string" ? image.mimeType : "image";
  return { type: "text", text: `[image removed from the shared file: ${mime}, ${kib} KiB]` };
}

/** Replaces every image block in a parsed JSON value, in place; adds to `tally`. */
export function dropImages(value: unknown, tally: DroppedImages): void {
  // an explicit stack: session values can nest deeper than the call stack allows
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (child === null || typeof child !== "object") continue;
      if (!Array.isArray(child) && isImageBlock(child as Record<string, unknown>)) {
        const image = child as { data: string; mimeType?: unknown };
        tally.dropped++;
        tally.bytes += image.data.length;
        record[key] = note(image);
      } else stack.push(child);
    }
  }
}

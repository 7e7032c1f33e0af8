// Where a page reads a session's content again when it is shown (lib/session/read/ranged-lines.ts): a picked
// file's bytes from the File itself (Blob.slice reads only that part, nothing is copied ahead), a library file's
// from the server by HTTP Range.
import type { ByteSource } from "@/lib/session/read/ranged-lines";

/** Bytes of a picked or dropped file: read from the disk again (the browser keeps only a handle). */
export function blobSource(blob: Blob): ByteSource {
  return async (start, end) => {
    try {
      return new Uint8Array(await blob.slice(start, end).arrayBuffer());
    } catch {
      // a browser refuses to read a picked file that changed or moved on disk since it was picked
      throw new Error("The session's content could not be read: the file changed or moved since it was opened; open it again.");
    }
  };
}

/** Bytes of a same-origin URL that serves byte ranges (/api/sessions/raw). */
export function rangeSource(url: string): ByteSource {
  return async (start, end) => {
    let response: Response;
    try {
      response = await fetch(url, { credentials: "same-origin", headers: { Range: `bytes=${start}-${end - 1}` }, cache: "no-store" });
    } catch {
      throw new Error("The session's content could not be read: the server cannot be reached.");
    }
    if (response.status !== 206) {
      await response.body?.cancel();
      throw new Error(`The session's content could not be read: the server answered ${response.status} to a byte range.`);
    }
    return new Uint8Array(await response.arrayBuffer());
  };
}

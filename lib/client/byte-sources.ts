// Where a page reads a session's content again when it is shown (lib/session/read/ranged-lines.ts): a picked
// file's bytes from the File itself (Blob.slice reads only that part, nothing is copied ahead), a library file's
// from the server by HTTP Range; and the frames of a library file's kept light index, for a session shown before
// they have all come.
import type { FrameBytes } from "@/lib/session/read/early-light-text";
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

/**
 * Bytes of the kept light index a restored session was sent (/api/sessions/light?…&index=), read at once: an
 * entry the page shows before its frame has come in the stream is read synchronously, as every entry is (the
 * tree's reads do not wait). What is shown first is read ahead (LightSessionReader.readAhead), so this reads
 * only what a click reaches before the stream does, a frame at a time; the frames are bytes, read through the
 * x-user-defined charset (one character per byte), which a synchronous request can do and a typed response cannot.
 */
export function framesSource(url: string): FrameBytes {
  return (start, end) => {
    const request = new XMLHttpRequest();
    request.open("GET", url, false);
    request.overrideMimeType("text/plain; charset=x-user-defined");
    request.setRequestHeader("Range", `bytes=${start}-${end - 1}`);
    try {
      request.send();
    } catch {
      throw new Error("The session's entries could not be read: the server cannot be reached.");
    }
    if (request.status !== 206) throw new Error(`The session's entries could not be read: the server answered ${request.status} to a byte range of its index.`);
    const text = request.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
    return bytes;
  };
}

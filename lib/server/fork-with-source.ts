// GET /api/sessions/with-source: a fork and the session it was forked from as one session file (every line of the
// source, then the fork's own entry lines), so the viewer compares them in one tree. Made from one read of each
// file: which of the fork's lines are its own is decided from the source's bytes that were sent, and what is sent
// of the fork from the bytes read of it, never from what the library read earlier. A file that changed between
// the library's look and this read (pi appended, a file rewritten) gives an answer that holds together, as of the
// read; one that changes during it is read up to the size it had when opened.
import { entryFingerprint } from "@/lib/library/inherited-entries";
import { isObject } from "@/lib/session/json";
import { fileLines, type PositionalReader } from "./file-lines";
import { libraryRoot, type SessionStore } from "./library";
import { libraryFamilies } from "./library-families";
import { maxFileBytes } from "./limits";
import { maxLineBytes } from "./line-limit";
import { parseLine } from "./parse-line";
import { openSessionFile, SessionPathError, type SessionFileHandle } from "./safe-path";
import { errorResponse, tooLargeMessage } from "./serve-session";

const NO_STORE = { "cache-control": "no-store" };
const NEWLINE = Buffer.from("\n");
/** the fork's own lines go out in pieces of about this many bytes */
const BATCH = 1 << 18;

/** The fork `rel` and its source as one session (forkWithSource), for comparing the two in one view. */
export async function forkWithSourceResponse(rel: unknown, maxBytes: number = maxFileBytes()): Promise<Response> {
  try {
    const root = await libraryRoot();
    const fork = await root.resolve(rel);
    const source = (await libraryFamilies(root.dir, root.files)).families.sourceOf.get(fork.rel);
    if (!source) return Response.json({ error: "the file is no fork of a session in the library", code: "not-found" }, { status: 404, headers: NO_STORE });
    // resolved again now: the library's look at the source may be older than its file
    const from = await opened(root, source.file);
    const into = await opened(root, fork.rel).catch(async (error: unknown) => {
      await from.handle.close();
      throw error;
    });
    if (from.size > maxBytes) {
      await Promise.all([from.handle.close(), into.handle.close()]);
      throw new SessionPathError("too-large", tooLargeMessage(from.size, maxBytes));
    }
    const chunks = forkWithSource(from, into, maxBytes);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    // (no content-length: how much of the fork is its own is known once the source has been read)
    return new Response(body, { headers: { "content-type": "application/x-ndjson", ...NO_STORE } });
  } catch (error) {
    return errorResponse(error);
  }
}

/** A session file opened as it is now, and its size then: what is read of it. */
export interface OpenedFile {
  handle: SessionFileHandle;
  size: number;
}

async function opened(root: SessionStore, rel: string): Promise<OpenedFile> {
  const handle = await openSessionFile(await root.resolve(rel));
  return { handle, size: (await handle.stat()).size };
}

/**
 * The bytes of `source` as read, then the lines of `fork` that are no copy of an entry among them: the fork's
 * entries whose id the source holds with other content, or holds not at all (lines that are no entry stay out:
 * the fork's own view has them). Each file is read once, up to its size when opened, and closed at the end.
 * Ends with an error, not past `maxBytes`.
 */
export async function* forkWithSource(source: OpenedFile, fork: OpenedFile, maxBytes: number): AsyncGenerator<Uint8Array> {
  const maxLine = maxLineBytes();
  let sent = 0;
  const counted = (bytes: Uint8Array) => {
    sent += bytes.byteLength;
    if (sent > maxBytes) throw new SessionPathError("too-large", tooLargeMessage(sent, maxBytes));
    return bytes;
  };
  try {
    const read: Buffer[] = [];
    const known = new Map<string, number>();
    let last = 0x0a;
    for await (const line of fileLines(
      upTo(source, (bytes) => read.push(bytes)),
      0,
      maxLine,
    )) {
      const fingerprint = entryOf(parseLine(line, maxLine));
      if (fingerprint) known.set(fingerprint.id, fingerprint.hash);
      for (const bytes of read.splice(0)) {
        last = bytes[bytes.length - 1]!;
        yield counted(bytes);
      }
    }
    for (const bytes of read.splice(0)) {
      last = bytes[bytes.length - 1]!;
      yield counted(bytes);
    }
    // the source's last line may lack its newline: it gets one, and nothing else comes between the files
    if (last !== 0x0a) yield counted(NEWLINE);
    let batch: Buffer[] = [];
    let batched = 0;
    for await (const line of fileLines(upTo(fork), 0, maxLine)) {
      const parsed = parseLine(line, maxLine);
      if (!("value" in parsed) || !isEntry(parsed.value)) continue;
      const fingerprint = entryFingerprint(parsed.value);
      if (fingerprint && known.get(fingerprint.id) === fingerprint.hash) continue;
      batch.push(line.bytes!, NEWLINE);
      batched += line.length + 1;
      if (batched < BATCH) continue;
      yield counted(Buffer.concat(batch));
      batch = [];
      batched = 0;
    }
    if (batched > 0) yield counted(Buffer.concat(batch));
  } finally {
    await Promise.all([source.handle.close(), fork.handle.close()]);
  }
}

/** Reads of an opened file that stop at its size then, handing what was read to `seen`. */
function upTo({ handle, size }: OpenedFile, seen?: (bytes: Buffer) => void): PositionalReader {
  return {
    async read(buffer, offset, length, position) {
      const result = await handle.read(buffer, offset, Math.max(0, Math.min(length, size - position)), position);
      if (result.bytesRead > 0) seen?.(buffer.subarray(offset, offset + result.bytesRead));
      return result;
    },
  };
}

/** An entry line as the library's digest takes it (file-digest.ts): an object, not a header nor a v4 record. */
const isEntry = (value: unknown): value is Record<string, unknown> =>
  isObject(value) && value.type !== "session" && (value.kind === undefined || value.kind === "entry");

function entryOf(parsed: ReturnType<typeof parseLine>) {
  return "value" in parsed && isEntry(parsed.value) ? entryFingerprint(parsed.value) : null;
}

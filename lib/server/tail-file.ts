// Follows a file that another program appends to: the complete lines written after a byte offset, and a reset
// when the file is cut, replaced or removed (then whoever reads it must start over), or grows past the limit the
// viewer opens. Each byte is read once: a line still being written is kept as it comes, not read again. Node only.
import { watch, type FSWatcher } from "node:fs";
import { open, stat } from "node:fs/promises";
import type { SessionFileHandle, SessionFileStats } from "./safe-path";

/** Complete lines: the bytes [offset, end) of the file, decoded; `end` is just after a "\n". */
export interface TailChunk {
  offset: number;
  end: number;
  text: string;
}

export type TailReset =
  /** the file is shorter than what was read */
  | "truncated"
  /** another file now has the name (a rename over it, or delete and create) */
  | "replaced"
  /** the bytes just before the offset changed: the file was rewritten in place */
  | "rewritten"
  | "removed"
  /** the file grew past the limit (TailOptions.maxBytes): the viewer would not open it */
  | "too-large";

export interface TailHandlers {
  append(chunk: TailChunk): void;
  /** The file no longer continues what was read, or is too large; the tail has stopped. `size`: the file's then, when known. */
  reset(reason: TailReset, size?: number): void;
}

export interface TailOptions {
  /** how often to stat the file besides fs.watch, which misses changes on some file systems and after renames */
  pollMs?: number;
  /** the most bytes one chunk carries, unless a single line is longer */
  maxChunkBytes?: number;
  /**
   * opens the file for each read (default: by its path). A server passes a guarded open that refuses a link
   * or another file swapped in after its checks (lib/server/safe-path openSessionFile); a refusal ends the
   * tail as "replaced".
   */
  open?: () => Promise<SessionFileHandle>;
  /** the file's size and identity now, null when it is gone (default: a stat of its path); an archived file's come from the archive */
  stat?: () => Promise<SessionFileStats | null>;
  /** calls `changed` whenever the file may have changed, until the returned stop is called (default: fs.watch of its path) */
  watch?: (changed: () => void) => () => void;
  /** the largest the file may be (PI_VIEWER_MAX_FILE_MB for a server): past it the tail stops ("too-large") */
  maxBytes?: number;
  /**
   * the most bytes of a line still being written kept between looks (default 16 MiB): a longer one is only
   * counted, and read again once its newline comes (twice in all, never once per look)
   */
  maxPendingBytes?: number;
}

export interface Tail {
  /** the offset up to which lines were sent */
  readonly offset: number;
  /** look at the file now (the watcher and the poll call this too) */
  check(): Promise<void>;
  close(): void;
}

const NEWLINE = 0x0a;
/** bytes before the offset compared on every read: a rewrite of the file shows there */
const SIGNATURE_BYTES = 64;

/**
 * Sends the file's lines from `offset` on as they are appended. Only whole
 * lines are sent: a line still being written (no "\n" yet) waits, and since a
 * "\n" byte never occurs inside a multi-byte UTF-8 character, no character is
 * ever split between chunks. `offset` must be the start of a line.
 */
export async function tailFile(file: string, offset: number, handlers: TailHandlers, options: TailOptions = {}): Promise<Tail> {
  const pollMs = options.pollMs ?? 1000;
  const maxChunk = options.maxChunkBytes ?? 1024 * 1024;
  const maxBytes = options.maxBytes ?? Infinity;
  const maxPending = options.maxPendingBytes ?? 16 * 1024 * 1024;
  const openFile = options.open ?? (() => open(file, "r"));
  const statFile = options.stat ?? (() => stat(file));
  /** where the lines sent end */
  let pos = offset;
  /** the bytes read after `pos`, a line without its newline yet: kept (while at most maxPending), and where they end */
  let pending: Buffer[] = [];
  let pendingKept = true;
  let scanned = offset;
  let closed = false;
  let again = false;
  let unwatch: (() => void) | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;

  // the identity is the opened file's, not the path's: the path may name another file by now
  const firstHandle = await openFile();
  let first;
  let signature: Buffer = Buffer.alloc(0);
  try {
    first = await firstHandle.stat();
    if (offset <= first.size) signature = await readRange(firstHandle, Math.max(0, offset - SIGNATURE_BYTES), offset);
  } finally {
    await firstHandle.close();
  }
  if (offset > first.size || first.size > maxBytes) {
    handlers.reset(offset > first.size ? "truncated" : "too-large", first.size);
    return { offset, check: async () => {}, close: () => {} };
  }
  const identity = { dev: first.dev, ino: first.ino };

  const close = () => {
    if (closed) return;
    closed = true;
    unwatch?.();
    if (timer) clearInterval(timer);
  };

  const stop = (reason: TailReset, size?: number) => {
    close();
    handlers.reset(reason, size);
  };

  /** One look at the file: send what was appended, or stop if it no longer continues what was sent. */
  const step = async () => {
    const st = await statFile().catch(() => null);
    if (!st) return stop("removed");
    if (st.ino !== identity.ino || st.dev !== identity.dev) return stop("replaced");
    // (bytes read past the last newline are gone too: what was read is no longer there)
    if (st.size < scanned) return stop("truncated", st.size);
    if (st.size > maxBytes) return stop("too-large", st.size);
    if (st.size === scanned) return;
    let handle: SessionFileHandle;
    try {
      handle = await openFile();
    } catch {
      return stop("replaced");
    }
    try {
      const opened = await handle.stat();
      if (opened.ino !== identity.ino || opened.dev !== identity.dev) return stop("replaced");
      // only what came since the last look, and the signature before it
      const buffer = Buffer.alloc(signature.length + Math.min(st.size - scanned, maxChunk));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, scanned - signature.length);
      if (!buffer.subarray(0, signature.length).equals(signature)) return stop("rewritten");
      const data = buffer.subarray(signature.length, Math.max(signature.length, bytesRead));
      if (data.length === 0) return;
      signature = Buffer.from(Buffer.concat([signature, data]).subarray(-SIGNATURE_BYTES));
      const lastNewline = data.lastIndexOf(NEWLINE);
      const start = scanned;
      scanned += data.length;
      if (st.size > scanned) again = true; // more was there than one read holds
      if (lastNewline === -1) {
        // the last line is still being written: kept for when its newline comes
        hold(data);
        return;
      }
      const head = pendingKept ? pending : [await readRange(handle, pos, start)];
      const sent = Buffer.concat([...head, data.subarray(0, lastNewline + 1)]);
      const chunk = { offset: pos, end: pos + sent.length, text: sent.toString("utf8") };
      pos = chunk.end;
      pending = [];
      pendingKept = true;
      hold(data.subarray(lastNewline + 1));
      handlers.append(chunk);
    } finally {
      await handle.close();
    }
  };

  /** Keeps the bytes of a line not ended yet, until they pass maxPending (then they are read again once it ends). */
  const hold = (bytes: Buffer) => {
    if (bytes.length === 0 || !pendingKept) return;
    if (scanned - pos > maxPending) {
      pending = [];
      pendingKept = false;
    } else pending.push(Buffer.from(bytes));
  };

  /** Looks run one after another; a look asked for while one runs is queued once, and waits for its turn. */
  let chain: Promise<void> = Promise.resolve();
  let queued: Promise<void> | null = null;
  const check = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (queued) return queued;
    const next = chain
      .then(async () => {
        queued = null;
        do {
          again = false;
          if (!closed) await step();
        } while (again && !closed);
      })
      .catch(() => {
        // the file went away between stat and read: the next look reports it
      });
    queued = next;
    chain = next;
    return next;
  };

  unwatch = (options.watch ?? watchPath(file))(() => void check());
  timer = setInterval(() => void check(), pollMs);
  timer.unref?.();
  void check(); // lines written between the caller's read and now

  return {
    get offset() {
      return pos;
    },
    check,
    close,
  };
}

/** fs.watch of the path; a watch that fails or ends leaves the poll to notice changes. */
function watchPath(file: string): (changed: () => void) => () => void {
  return (changed) => {
    let watcher: FSWatcher | null = null;
    try {
      watcher = watch(file, { persistent: false }, changed);
      watcher.on("error", () => {
        watcher?.close();
        watcher = null;
      });
    } catch {
      watcher = null;
    }
    return () => watcher?.close();
  };
}

async function readRange(handle: SessionFileHandle, start: number, end: number): Promise<Buffer> {
  if (end <= start) return Buffer.alloc(0);
  const buffer = Buffer.alloc(end - start);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
  return buffer.subarray(0, bytesRead);
}

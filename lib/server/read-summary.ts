// Describes one session file for the library from a bounded number of its bytes, with a cache keyed by
// (path, size, mtime, inode). Small files are scanned whole (exact counts); a big file is read only at its start
// (header, first user message, early name) and its end (a later rename), and its entry count is estimated,
// so listing a directory of huge sessions costs the same as listing small ones.
import { open } from "node:fs/promises";
import { FileStateCache } from "./file-state-cache";
import { openSessionFile, type ResolvedSessionFile, type SessionFileHandle } from "./safe-path";
import { SummaryScanner, type SessionSummary } from "./session-summary";

export interface SummaryLimits {
  /** files up to this size are read whole */
  fullScan: number;
  /** bytes read from the start of a bigger file */
  head: number;
  /** bytes read from the end of a bigger file */
  tail: number;
}

/** Branches are counted only in files read whole: it needs every entry's ids. */
export const SUMMARY_LIMITS: SummaryLimits = { fullScan: 1024 * 1024, head: 512 * 1024, tail: 256 * 1024 };

const CHUNK = 256 * 1024;

export interface BoundedSummary {
  summary: SessionSummary;
  /** bytes read from the file */
  bytesRead: number;
}

/** How a file is opened: by its path, or (in the server) by a guarded open of the file a path check passed. */
export type OpenFile = () => Promise<SessionFileHandle>;

export async function readSummary(file: string, size: number, limits: SummaryLimits = SUMMARY_LIMITS, openFile?: OpenFile): Promise<SessionSummary> {
  return (await readBoundedSummary(file, size, limits, openFile)).summary;
}

export async function readBoundedSummary(file: string, size: number, limits: SummaryLimits = SUMMARY_LIMITS, openFile?: OpenFile): Promise<BoundedSummary> {
  const handle: SessionFileHandle = await (openFile ? openFile() : open(file, "r"));
  try {
    let bytesRead = 0;
    const read = async (position: number, length: number): Promise<Buffer> => {
      const buffer = Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead: n } = await handle.read(buffer, filled, length - filled, position + filled);
        if (n === 0) break;
        filled += n;
      }
      bytesRead += filled;
      return buffer.subarray(0, filled);
    };

    if (size <= limits.fullScan) {
      const scanner = new SummaryScanner({ countBranches: true });
      // ignoreBOM keeps a leading BOM in the text, so a BOM-prefixed header fails as it does in pi
      const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
      // read to the end, not to `size`: the file may have grown since it was listed
      for (let position = 0; ; position += CHUNK) {
        const chunk = await read(position, CHUNK);
        if (chunk.length === 0) break;
        scanner.push(decoder.decode(chunk, { stream: true }));
        if (chunk.length < CHUNK) break;
      }
      scanner.push(decoder.decode());
      return { summary: scanner.end(), bytesRead };
    }

    const head = await read(0, limits.head);
    const tailStart = Math.max(head.length, size - limits.tail);
    const tail = await read(tailStart, size - tailStart);
    return { summary: summariseEnds(head, tail, size - head.length - tail.length), bytesRead };
  } finally {
    await handle.close();
  }
}

/** The summary of a big file from its first and last bytes; `between` bytes were not read. */
function summariseEnds(head: Buffer, tail: Buffer, between: number): SessionSummary {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  // only whole lines: the head up to its last newline, the tail from its first
  const headEnd = head.lastIndexOf(0x0a) + 1;
  const headScanner = new SummaryScanner({ countBranches: false });
  headScanner.push(decoder.decode(head.subarray(0, headEnd)));
  const start = headScanner.end();

  const tailFrom = between > 0 ? tail.indexOf(0x0a) + 1 : 0;
  const tailLines = tail.subarray(tailFrom);
  const tailScanner = new SummaryScanner({ countBranches: false });
  // a leading header line so the tail's lines count as entries, not as a first line pi would check
  tailScanner.push('{"type":"session"}\n');
  tailScanner.push(new TextDecoder("utf-8").decode(tailLines));
  const end = tailScanner.end();

  // lines not read: the cut-off ends and the middle, at the average line length of what was read
  const sampledBytes = headEnd + tailLines.length;
  const sampledLines = Math.max(1, countNewlines(head.subarray(0, headEnd)) + countNewlines(tailLines));
  const unread = head.length - headEnd + between + tailFrom;
  const estimate = start.entryCount + end.entryCount + Math.round((unread * sampledLines) / Math.max(1, sampledBytes));
  return {
    ...start,
    sessionName: tailScanner.sawName ? end.sessionName : start.sessionName,
    entryCount: estimate,
    entryCountEstimated: true,
    branchCount: null,
  };
}

function countNewlines(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) n++;
  return n;
}

/**
 * Bumped whenever a summary made from the same bytes would come out otherwise (SummaryScanner, SUMMARY_LIMITS): a
 * summary kept outside this process (the archive's) of another format is made again.
 */
export const SUMMARY_FORMAT = 1;

/** Listing a library describes every file in it: all are kept, however big a library grows in practice. */
export const SUMMARY_FILES = 100_000;
const summaries = new FileStateCache<Promise<SessionSummary>>(SUMMARY_FILES);

/** The summary made or taken for `resolved` as it is now, if there is one. */
export const madeSummary = (resolved: ResolvedSessionFile): Promise<SessionSummary> | undefined => summaries.get(resolved.file, resolved);

/** Takes `summary` as what `resolved`, as it is now, reads as: one kept elsewhere, made from the same bytes. */
export function takeSummary(resolved: ResolvedSessionFile, summary: SessionSummary): void {
  summaries.set(resolved.file, resolved, Promise.resolve(summary));
}

/** The summary of a session file the path check passed, as it is now; an unchanged file (path, size, mtime, inode) is not read again. */
export function cachedSummary(resolved: ResolvedSessionFile): Promise<SessionSummary> {
  return summaries.value(resolved.file, resolved, () => readSummary(resolved.file, resolved.size, SUMMARY_LIMITS, () => openSessionFile(resolved)));
}

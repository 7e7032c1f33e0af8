// Streams one session file through the SummaryScanner, with a cache keyed by (path, size, mtime).
import { createReadStream } from "node:fs";
import { SummaryScanner, type SessionSummary } from "./session-summary";

/** Branches are counted only in files up to this size: it needs every entry's ids kept in memory. */
export const BRANCH_COUNT_LIMIT = 16 * 1024 * 1024;
const CHUNK = 1024 * 1024;

export async function readSummary(file: string, size: number, branchCountLimit = BRANCH_COUNT_LIMIT): Promise<SessionSummary> {
  const scanner = new SummaryScanner({ countBranches: size <= branchCountLimit });
  // ignoreBOM keeps a leading BOM in the text, so a BOM-prefixed header fails as it does in pi
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  for await (const chunk of createReadStream(file, { highWaterMark: CHUNK })) scanner.push(decoder.decode(chunk as Buffer, { stream: true }));
  scanner.push(decoder.decode());
  return scanner.end();
}

const cache = new Map<string, { size: number; mtimeMs: number; summary: Promise<SessionSummary> }>();

/** The summary of a file as it is now; unchanged files (same size and mtime) are not read again. */
export function cachedSummary(file: string, size: number, mtimeMs: number): Promise<SessionSummary> {
  const hit = cache.get(file);
  if (hit && hit.size === size && hit.mtimeMs === mtimeMs) return hit.summary;
  const summary = readSummary(file, size);
  cache.set(file, { size, mtimeMs, summary });
  summary.catch(() => cache.delete(file));
  return summary;
}

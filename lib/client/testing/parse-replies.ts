// What parse.worker.ts sends the page for a session's bytes, made with the readers it uses: how the loader's tests
// play the worker, in whatever order and at whatever moment a test needs, without running it.
import { LightFrameReader } from "@/lib/session/read/light-frames";
import { LightReader, newlinesOf, type LightChunk } from "@/lib/session/read/light-lines";
import { snapshotParts } from "@/lib/session/read/object-snapshot";
import { SchemaLineChecker } from "@/lib/session/read/schema-lines";
import { framesOf, snapshotOf } from "@/lib/session/testing/light-frames-of";
import type { ParseReply } from "../parse-protocol";

export type LinesReply = Extract<ParseReply, { type: "lines" }>;
type EndReply = Extract<ParseReply, { type: "end" }>;
type SchemaReply = Extract<ParseReply, { type: "schema" }>;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

export const bytesOf = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text);

function linesReply(chunk: LightChunk, done: number, total: number, kept: boolean): LinesReply {
  const { light, raws, cut, offsets } = chunk;
  return { type: "lines", light, raws, cut, offsets, newlines: newlinesOf(light), done, total, kept };
}

/**
 * A picked file or a fetched URL read `chunk` bytes at a time, as Reading.bytes posts it: lines once a piece ends
 * one (progress while none does), then the end.
 */
export function streamReplies(bytes: Uint8Array, chunk: number): ParseReply[] {
  const reader = new LightReader(1);
  const total = bytes.byteLength;
  const replies: ParseReply[] = [];
  let done = 0;
  for (let at = 0; at < total; at += chunk) {
    // a copy: the reader keeps the pieces it reads lines from, and the page may be handed them
    const piece = bytes.slice(at, at + chunk);
    done += piece.byteLength;
    const lines = reader.push(piece);
    replies.push(lines ? linesReply(lines, done, total, false) : { type: "progress", done, total });
  }
  const rest = reader.flush();
  if (rest) replies.push(linesReply(rest, done, total, false));
  replies.push({ type: "end", last: reader.end(), done, total, complete: reader.complete });
  return replies;
}

/** The worker's check of the light lines among `replies` (batches included), posted once the page handed them all back. */
export function schemaReply(replies: readonly ParseReply[]): SchemaReply {
  const checker = new SchemaLineChecker();
  for (const reply of linesOf(replies)) checker.push(decoder.decode(reply.light));
  return { type: "schema", ...checker.result() };
}

/** The lines replies among `replies`, a batch's in order. */
export function linesOf(replies: readonly ParseReply[]): LinesReply[] {
  return replies.flatMap((reply) => (reply.type === "lines" ? [reply] : reply.type === "batch" ? reply.replies : []));
}

export function endOf(replies: readonly ParseReply[]): EndReply {
  return replies.find((reply): reply is EndReply => reply.type === "end")!;
}

export interface LightIndex {
  /** the kept index's frames, as /api/sessions/light sends them and serves by range (&index=) */
  frames: Uint8Array;
  /** what the worker posts: ranges, the snapshot when one is sent, the lines in batches, the end */
  replies: ParseReply[];
}

/**
 * A library file's kept light index as the worker reads it from /api/sessions/light, `piece` bytes of frames at a
 * time: the lines come kept (the worker keeps its own copy), their changed lines' bytes left in the file.
 * `snapshot`: none, the one the server keeps, or one that parses but holds no index it can restore; `index`: the kept
 * index's id (x-light-index-id), without which the page cannot show it before its lines come.
 */
export function lightIndexReplies(
  bytes: Uint8Array,
  {
    chunk = 256,
    piece = 512,
    snapshot = "none",
    index = "kept-1",
  }: { chunk?: number; piece?: number; snapshot?: "none" | "kept" | "damaged"; index?: string | null } = {},
): LightIndex {
  const { frames } = framesOf(bytes, chunk);
  const replies: ParseReply[] = [{ type: "ranges", ranged: true }];
  if (snapshot !== "none") {
    const parts = snapshotParts(snapshotOf(frames)!);
    // (one that does not parse is not sent: the worker reads the lines instead; this one parses, and holds no index)
    replies.push({ type: "snapshot", snapshot: snapshot === "damaged" ? { ...parts, json: {} } : parts, index });
  }
  const reader = new LightFrameReader();
  const total = bytes.byteLength;
  for (let at = 0; at < frames.byteLength; at += piece) {
    const batch: LinesReply[] = [];
    let end: EndReply | null = null;
    for (const frame of reader.push(frames.slice(at, at + piece))) {
      if (frame.type === "lines") batch.push(linesReply(frame.chunk, frame.chunk.done, total, true));
      else if (frame.type === "end") end = { type: "end", last: decoder.decode(frame.last), done: frame.total, total: frame.total, complete: frame.complete };
    }
    if (batch.length) replies.push({ type: "batch", replies: batch });
    if (end) replies.push(end);
  }
  return { frames, replies };
}

import { createReadStream } from "node:fs";
import { Session, SessionParser, type OpenOptions } from "@/lib/session";

/** Bytes read per chunk: the same 1 MiB pi's own loader uses. */
const CHUNK = 1024 * 1024;

/**
 * Read a session file from disk into a Session, streaming: the text is decoded
 * chunk by chunk (invalid UTF-8 becomes U+FFFD, as in pi) and never held whole.
 */
export async function readSessionFile(file: string, options?: OpenOptions & { signal?: AbortSignal }): Promise<Session> {
  const parser = new SessionParser();
  // ignoreBOM keeps a leading BOM in the text: pi sees it too (and refuses the file), so must we
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const stream = createReadStream(file, { highWaterMark: CHUNK, signal: options?.signal });
  for await (const chunk of stream) parser.push(decoder.decode(chunk as Buffer, { stream: true }));
  parser.push(decoder.decode());
  return new Session(parser.end(), options);
}

import { createReadStream } from "node:fs";
import { Session, SessionParser, type OpenOptions } from "@/lib/session";
import { LightReader } from "@/lib/session/read/light-lines";
import { LightSessionReader } from "@/lib/session/read/light-session";
import { FileEntries } from "./file-entries";
import { FileLineTexts } from "./file-line-texts";

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

/**
 * Index a session file without keeping its content: the index is built from
 * its light lines (long strings cut, lib/session/read/light-lines.ts) and an
 * entry's content is read again from the file, by byte range, when something
 * shows, exports or projects it. Nor are its entry objects kept, but the most
 * recently used: the index holds columns, and an entry is read again from its
 * line (FileEntries). For files larger than memory; the answers are
 * readSessionFile's. The Session reads from the file until `close()`.
 */
export async function readSessionIndex(
  file: string,
  /**
   * keepEntries: entry objects kept in memory (the last ones read; the rest are read again from the file);
   * checkSchema: check each entry against pi's schemas as it is indexed (for the schema diagnostics, which would
   * otherwise read every entry again)
   */
  options?: OpenOptions & { signal?: AbortSignal; keepEntries?: number; checkSchema?: boolean },
): Promise<{ session: Session; close(): void }> {
  const lines = new FileLineTexts(file);
  const entries = new FileEntries(file);
  const close = () => {
    lines.close();
    entries.close();
  };
  try {
    const reader = new LightReader();
    const index = new LightSessionReader(lines, entries, options?.keepEntries);
    if (options?.checkSchema) index.checkSchemaAsRead();
    const stream = createReadStream(file, { highWaterMark: CHUNK, signal: options?.signal });
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      entries.add(bytes);
      const light = reader.push(bytes);
      if (light) index.push(light);
    }
    const rest = reader.flush();
    if (rest) index.push(rest);
    const parser = index.end(reader.end());
    const checked = parser.schemaCheckedAsRead;
    return { session: new Session(parser, checked ? { ...options, schemaChecked: checked } : options), close };
  } catch (error) {
    close();
    throw error;
  }
}

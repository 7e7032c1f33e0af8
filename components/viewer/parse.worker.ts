// Reads a session's bytes off the main thread, a File as a stream or a URL, and posts them as light lines
// (lib/session/light-lines.ts): long strings are cut from the bytes before decoding, because Chromium decodes
// UTF-8 that is not pure ASCII at about 40 MB/s, seconds for a big session. The raw bytes of the cut lines go
// to the page too, transferred, not copied: the page reads their content from them when it is shown.
// The page parses the light text itself: posting parsed objects costs more than parsing (structured clone of
// a 100 MB session's entries takes several times as long as JSON.parse of its text).
// Once all lines are posted, the worker checks the light text against pi's schemas and posts only the issues.
import { LightReader, type LightChunk } from "@/lib/session/light-lines";
import { SchemaLineChecker } from "@/lib/session/schema-lines";
import type { LoadError, ParseReply, ParseRequest } from "./parse-protocol";

const scope = globalThis as unknown as {
  postMessage(reply: ParseReply, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
};

class Reading {
  private readonly reader = new LightReader();
  /** the light text posted, kept for the schema check after the end: the page gets every slice first */
  private readonly texts: string[] = [];
  private done = 0;

  constructor(private total: number) {}

  bytes(chunk: Uint8Array): void {
    this.done += chunk.byteLength;
    const lines = this.reader.push(chunk);
    if (lines) this.post(lines);
    else scope.postMessage({ type: "progress", done: this.done, total: this.total });
  }

  private post(lines: LightChunk): void {
    this.texts.push(lines.text);
    // raw is a view on a buffer of its own (LightReader copies what it keeps back), so the buffer can move
    const raw = lines.cut.length > 0 ? lines.raw : null;
    const transfer: Transferable[] = [lines.cut.buffer];
    if (raw) transfer.push(raw.buffer);
    scope.postMessage({ type: "lines", text: lines.text, raw, cut: lines.cut, done: this.done, total: this.total }, transfer);
  }

  end(): void {
    const rest = this.reader.flush();
    if (rest) this.post(rest);
    const last = this.reader.end();
    this.total = Math.max(this.total, this.done);
    scope.postMessage({ type: "end", last, done: this.done, total: this.total, complete: this.reader.complete });
    const checker = new SchemaLineChecker();
    for (let i = 0; i < this.texts.length; i++) {
      checker.push(this.texts[i]!);
      this.texts[i] = "";
    }
    scope.postMessage({ type: "schema", ...checker.result() });
  }
}

async function readStream(stream: ReadableStream<Uint8Array>, reading: Reading): Promise<void> {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    reading.bytes(value);
  }
  reading.end();
}

async function readBlob(blob: Blob): Promise<void> {
  await readStream(blob.stream(), new Reading(blob.size));
}

async function readUrl(url: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: "same-origin" });
  } catch {
    throw { kind: "network", message: "The file could not be fetched: the network failed, or the server does not allow cross-origin requests (CORS)." } satisfies LoadError;
  }
  if (!response.ok) throw { kind: "http", status: response.status, message: await errorText(response) } satisfies LoadError;
  const reading = new Reading(Number(response.headers.get("content-length")) || 0);
  if (response.body) await readStream(response.body, reading);
  else reading.end();
}

/** The server's JSON `{error}` when it sent one, else the status text. */
async function errorText(response: Response): Promise<string> {
  const text = (await response.text().catch(() => "")).slice(0, 2000);
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === "object" && typeof (body as { error?: unknown }).error === "string") return (body as { error: string }).error;
  } catch {
    // not JSON: fall back to the status line
  }
  return response.statusText || `HTTP ${response.status}`;
}

function asLoadError(error: unknown): LoadError {
  if (error && typeof error === "object" && "kind" in error) return error as LoadError;
  return { kind: "read", message: error instanceof Error ? error.message : String(error) };
}

scope.onmessage = (event) => {
  const request = event.data;
  const job = request.kind === "file" ? readBlob(request.file) : readUrl(request.url);
  job.catch((error: unknown) => scope.postMessage({ type: "error", error: asLoadError(error) }));
};

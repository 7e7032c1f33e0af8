// Reads a session's bytes off the main thread, a File as a stream or a URL, and posts them as light lines
// (lib/session/light-lines.ts): long strings cut and other characters escaped, so the text is ASCII, because
// Chromium decodes UTF-8 that is not pure ASCII at about 60 MB/s, seconds for a big session, and ASCII five
// times as fast. Light lines and the raw bytes of the lines they change go to the page as bytes, transferred,
// not copied (a posted string is copied twice); the page decodes and parses them, and reads an entry's
// content from the raw bytes when it is shown. Posting parsed objects would cost more than parsing
// (structured clone of a 100 MB session's entries takes several times as long as JSON.parse of its text).
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
  /** a copy of the light lines posted, for the schema check after the end: the page gets every slice first */
  private readonly lights: Uint8Array[] = [];
  private done = 0;

  constructor(private total: number) {}

  bytes(chunk: Uint8Array): void {
    this.done += chunk.byteLength;
    const lines = this.reader.push(chunk);
    if (lines) this.post(lines);
    else scope.postMessage({ type: "progress", done: this.done, total: this.total });
  }

  private post(lines: LightChunk): void {
    this.lights.push(lines.light.slice());
    // light and raw are views on buffers of their own (LightReader copies what it keeps back), so the buffers can move
    const raw = lines.cut.length > 0 ? lines.raw : null;
    const transfer: Transferable[] = [lines.light.buffer, lines.cut.buffer];
    if (raw) transfer.push(raw.buffer);
    scope.postMessage({ type: "lines", light: lines.light, raw, cut: lines.cut, done: this.done, total: this.total }, transfer);
  }

  end(): void {
    const rest = this.reader.flush();
    if (rest) this.post(rest);
    const last = this.reader.end();
    this.total = Math.max(this.total, this.done);
    scope.postMessage({ type: "end", last, done: this.done, total: this.total, complete: this.reader.complete });
    const checker = new SchemaLineChecker();
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    for (let i = 0; i < this.lights.length; i++) {
      checker.push(decoder.decode(this.lights[i]!));
      this.lights[i] = new Uint8Array(0);
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

// Reads a session's bytes off the main thread: a File in slices or a URL as a stream, decoded as UTF-8
// (a BOM is kept, as pi sees it) and posted as text, one slice at a time. The page parses the text itself:
// posting parsed objects costs more than parsing (structured clone of a 100 MB session's entries takes
// several times as long as JSON.parse of its text), and strings cross to the page as a plain copy.
// Once the text is posted, the worker checks it against pi's schemas (the zod checks are the most costly part
// of Session.diagnostics) while the page parses, and posts only the issues found.
import { SchemaLineChecker } from "@/lib/session/schema-lines";
import type { LoadError, ParseReply, ParseRequest } from "./parse-protocol";

const CHUNK = 1024 * 1024;

const scope = globalThis as unknown as {
  postMessage(reply: ParseReply): void;
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
};

class Reading {
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  done = 0;
  /** the text posted, kept for the schema check after the end: the page gets every slice first */
  private readonly texts: string[] = [];
  /** bytes up to and including the last "\n" (a newline byte never sits inside a multi-byte character) */
  private complete = 0;

  constructor(public total: number) {}

  bytes(chunk: Uint8Array): void {
    const newline = chunk.lastIndexOf(0x0a);
    if (newline !== -1) this.complete = this.done + newline + 1;
    this.done += chunk.byteLength;
    const text = this.decoder.decode(chunk, { stream: true });
    this.texts.push(text);
    scope.postMessage({ type: "text", text, done: this.done, total: this.total });
  }

  end(): void {
    const text = this.decoder.decode();
    scope.postMessage({ type: "end", text, done: this.done, total: Math.max(this.total, this.done), complete: this.complete });
    const checker = new SchemaLineChecker();
    for (let i = 0; i < this.texts.length; i++) {
      checker.push(this.texts[i]!);
      this.texts[i] = "";
    }
    checker.push(text);
    scope.postMessage({ type: "schema", ...checker.result() });
  }
}

async function readBlob(blob: Blob): Promise<void> {
  const reading = new Reading(blob.size);
  for (let offset = 0; offset < blob.size; offset += CHUNK) {
    reading.bytes(new Uint8Array(await blob.slice(offset, offset + CHUNK).arrayBuffer()));
  }
  reading.end();
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
  if (response.body) {
    const stream = response.body.getReader();
    for (;;) {
      const { done, value } = await stream.read();
      if (done) break;
      reading.bytes(value);
    }
  }
  reading.end();
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

// Reads a session's bytes off the main thread, a File as a stream or a URL, and posts them as light lines
// (lib/session/read/light-lines.ts): long strings cut and other characters escaped, so the text is ASCII, because
// Chromium decodes UTF-8 that is not pure ASCII at about 60 MB/s, seconds for a big session, and ASCII five
// times as fast. Light lines and the raw bytes of the lines they change go to the page as bytes, transferred,
// not copied (a posted string is copied twice); the page decodes and parses them, and reads an entry's
// content again from the file when it is shown (or from the raw bytes, where the file cannot be read again). Posting parsed objects would cost more than parsing
// (structured clone of a 100 MB session's entries takes several times as long as JSON.parse of its text).
// The page hands each slice's light lines back once decoded; when all are back, the worker checks the light
// text against pi's schemas and posts only the issues.
// A share file (lib/share) is unsealed and decompressed here too, so the page only ever sees light lines.
import "./zod-jitless"; // first: the schema check must not probe for eval, which the pages' CSPs refuse
import { LightFrameReader } from "@/lib/session/read/light-frames";
import { snapshotParts, type SnapshotParts } from "@/lib/session/read/object-snapshot";
import { LightReader, newlinesOf, type LightChunk } from "@/lib/session/read/light-lines";
import { SchemaLineChecker } from "@/lib/session/read/schema-lines";
import { ShareManifestError } from "@/lib/share/manifest";
import { collect, gunzipped, prepended, streamOf, unpackShareStream } from "@/lib/share/pack";
import { lockOf, unseal, unsealedStream, WrongSecretError } from "@/lib/share/seal";
import { extractShare, looksLikeHtml } from "@/lib/share/share-html";
import type { LoadError, ParseReply, ParseRequest, ShareSecret } from "./parse-protocol";

const scope = globalThis as unknown as {
  postMessage(reply: ParseReply, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
};

class Reading {
  private readonly reader = new LightReader();
  /** light lines the page has handed back, in order, waiting for the schema check (it starts at the end) */
  private lights: Uint8Array[] = [];
  private readonly checker = new SchemaLineChecker();
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private posted = 0;
  private checked = 0;
  private ended = false;
  private reported = false;
  private done = 0;

  constructor(private total: number) {}

  bytes(chunk: Uint8Array): void {
    this.done += chunk.byteLength;
    const lines = this.reader.push(chunk);
    if (lines) this.post(lines);
    else scope.postMessage({ type: "progress", done: this.done, total: this.total });
  }

  /**
   * Lines read elsewhere (the server's light index): their light bytes are a buffer of their own size, so the page
   * keeps them as they are and the worker copies them for its check, a copy the page's thread would make otherwise.
   */
  lines(lines: LightChunk): void {
    this.done = lines.done;
    if (this.keepForCheck) this.lights.push(lines.light.slice());
    this.post(lines, true);
  }

  /** whether the lines are kept for the schema check: not when they come with a snapshot (see checkThese) */
  private keepForCheck = true;

  /** The lines come with a snapshot of their index, which holds their check: nothing is kept, nothing checked. */
  skipCheck(): void {
    this.keepForCheck = false;
  }

  /** The page asks for the check after all (the snapshot held none, or it read the lines): these are all of them. */
  checkThese(lights: Uint8Array[]): void {
    this.keepForCheck = true;
    this.lights = lights;
    this.posted = lights.length;
    this.check();
  }

  /** The end of lines read elsewhere: the final line without newline, and the bytes up to the last newline. */
  endWith(last: string, complete: number, total: number): void {
    this.done = total;
    this.finish(last, complete);
  }

  /** lines read from one piece of a stream of frames: posted together, since their frames may share its buffer */
  private batch: { replies: Extract<ParseReply, { type: "lines" }>[]; transfer: Set<ArrayBufferLike> } | null = null;

  /** Lines until flushLines are posted as one message (they are views of one piece of the stream). */
  batchLines(): void {
    this.batch ??= { replies: [], transfer: new Set() };
  }

  flushLines(): void {
    const batch = this.batch;
    this.batch = null;
    if (batch?.replies.length) scope.postMessage({ type: "batch", replies: batch.replies }, [...batch.transfer] as Transferable[]);
  }

  private post(lines: LightChunk, kept = false): void {
    this.posted++;
    // the buffers are the reader's own or the stream's (LightReader copies what it keeps back), so they can move
    const transfer = this.batch?.transfer ?? new Set<ArrayBufferLike>();
    transfer.add(lines.light.buffer).add(lines.cut.buffer).add(lines.offsets.buffer);
    for (const raw of lines.raws) transfer.add(raw.buffer);
    // found here, where the time is free: the page keeps the light text and reads entries from it by line
    const newlines = newlinesOf(lines.light);
    transfer.add(newlines.buffer);
    const reply = {
      type: "lines",
      light: lines.light,
      raws: lines.raws,
      cut: lines.cut,
      offsets: lines.offsets,
      newlines,
      done: this.done,
      total: this.total,
      kept,
    } as const;
    if (this.batch) this.batch.replies.push(reply);
    else scope.postMessage(reply, [...transfer] as Transferable[]);
  }

  /** A slice's light lines back from the page. */
  read(light: Uint8Array): void {
    this.lights.push(light);
    if (this.ended) this.check();
  }

  end(): void {
    const rest = this.reader.flush();
    if (rest) this.post(rest);
    this.finish(this.reader.end(), this.reader.complete);
  }

  private finish(last: string, complete: number): void {
    this.total = Math.max(this.total, this.done);
    scope.postMessage({ type: "end", last, done: this.done, total: this.total, complete });
    this.ended = true;
    this.check();
  }

  /** Checks the slices that are back (after the end: while reading, the worker's time goes to the page's lines). */
  private check(): void {
    if (!this.keepForCheck) return;
    const lights = this.lights;
    this.lights = [];
    for (const light of lights) this.checker.push(this.decoder.decode(light));
    this.checked += lights.length;
    if (this.checked < this.posted || this.reported) return;
    this.reported = true;
    scope.postMessage({ type: "schema", ...this.checker.result() });
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

let reading: Reading | null = null;

async function readBlob(blob: Blob): Promise<void> {
  reading = new Reading(blob.size);
  await readStream(blob.stream(), reading);
}

function damaged(error: unknown): LoadError {
  return { kind: "read", message: `The shared session cannot be opened: ${error instanceof Error ? error.message : String(error)}` };
}

/** A share payload: unsealed with the secret, then read like a file, its manifest posted first. */
async function readShare(text: string, secret: ShareSecret | undefined): Promise<void> {
  let lock;
  try {
    lock = lockOf(text);
  } catch (error) {
    throw damaged(error);
  }
  if (lock !== "none" && !secret) {
    const message =
      lock === "password"
        ? "This shared session is protected by a password."
        : "This shared session is sealed; its key is the part after #k= of the link it was shared with.";
    throw { kind: "locked", lock, wrong: false, message } satisfies LoadError;
  }
  let gzipped: ReadableStream<Uint8Array>;
  try {
    // an unlocked share streams from its first piece; a sealed one is opened whole (AES-GCM authenticates it all)
    gzipped = lock === "none" ? unsealedStream(text) : streamOf(await unseal(text, secret));
  } catch (error) {
    if (error instanceof WrongSecretError && lock !== "none")
      throw {
        kind: "locked",
        lock,
        wrong: true,
        message: lock === "password" ? "That password does not open this session." : "That key does not open this session.",
      } satisfies LoadError;
    throw damaged(error);
  }
  let opened;
  try {
    opened = await unpackShareStream(gunzipped(gzipped));
  } catch (error) {
    if (error instanceof ShareManifestError) throw damaged(error);
    throw error;
  }
  scope.postMessage({ type: "manifest", manifest: opened.manifest });
  reading = new Reading(opened.manifest.bytes);
  await readStream(opened.session, reading);
}

/**
 * A library file's light index, where the server has one (it makes it the first time): the lines come cut and
 * escaped already, and the content is read from the file by range. False when the server reads the file whole
 * instead (409: an older format or a v4 log), before anything was posted.
 */
async function readLightIndex(url: string): Promise<boolean> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: "same-origin" });
  } catch {
    return false;
  }
  // 409: a file read whole; a server error: the file itself may still be read (a missing or refused file is said as
  // /api/sessions/raw says it)
  if (response.status === 409 || response.status >= 500 || !response.body) return false;
  if (!response.ok) throw { kind: "http", status: response.status, message: await errorText(response) } satisfies LoadError;
  scope.postMessage({ type: "ranges", ranged: true });
  const frames = new LightFrameReader();
  reading = new Reading(Number(response.headers.get("x-file-size")) || 0);
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const body = response.body.getReader();
  let held: Promise<void> | null = null;
  for (;;) {
    if (held) await held;
    held = null;
    const { done, value } = await body.read();
    if (done) break;
    reading.batchLines();
    for (const frame of frames.push(value)) {
      if (frame.type === "lines") reading.lines(frame.chunk);
      else if (frame.type === "snapshot") {
        // parsed here, off the page's thread; one that does not parse is not sent, and the page reads the lines
        let parts: SnapshotParts | null = null;
        try {
          parts = snapshotParts(frame.snapshot, frame.ownsBuffer);
        } catch {
          parts = null;
        }
        if (parts) {
          reading.skipCheck();
          scope.postMessage({ type: "snapshot", snapshot: parts, index: response.headers.get("x-light-index-id") }, [parts.arrays]);
          // the page may show the session before the rest of its lines come: until it has, reading them would
          // take the cores, and the server's time, from what it reads to show it
          held = new Promise((resolve) => (resume = resolve));
        }
      } else {
        // (read before the lines go: they take the piece's buffer, which the final line may be in)
        const last = decoder.decode(frame.last);
        reading.flushLines();
        reading.endWith(last, frame.complete, frame.total);
      }
    }
    reading.flushLines();
  }
  if (!frames.complete) throw { kind: "read", message: "The server's light index of this file ended early: open the file again." } satisfies LoadError;
  return true;
}

async function readUrl(url: string, secret: ShareSecret | undefined): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: "same-origin" });
  } catch {
    throw {
      kind: "network",
      message: "The file could not be fetched: the network failed, or the server does not allow cross-origin requests (CORS).",
    } satisfies LoadError;
  }
  if (!response.ok) throw { kind: "http", status: response.status, message: await errorText(response) } satisfies LoadError;
  const total = Number(response.headers.get("content-length")) || 0;
  if (!response.body) {
    reading = new Reading(total);
    return reading.end();
  }
  const body = response.body.getReader();
  const first = await body.read();
  const head = first.done ? new Uint8Array(0) : first.value;
  if (looksLikeHtml(head)) return readSharePage(prepended(head, body), secret);
  // a cross-origin server's headers are hidden unless it exposes them: its content is then kept, not read by range
  const coding = response.headers.get("content-encoding");
  const ranged = response.headers.get("accept-ranges")?.toLowerCase() === "bytes" && (!coding || coding === "identity");
  scope.postMessage({ type: "ranges", ranged });
  reading = new Reading(total);
  await readStream(prepended(head, body), reading);
}

/** A share file served over HTTP (the static viewer's ?src=): its data block is the session. */
async function readSharePage(page: ReadableStream<Uint8Array>, secret: ShareSecret | undefined): Promise<void> {
  const payload = extractShare(new TextDecoder().decode(await collect(page)));
  if (payload === null)
    throw { kind: "read", message: "That address serves an HTML page, not a session file (.jsonl) or a share file of this viewer." } satisfies LoadError;
  await readShare(payload, secret);
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

/** Set while the rest of a light index's lines wait for the page's "resume" (see readLightIndex). */
let resume: (() => void) | null = null;

scope.onmessage = (event) => {
  const request = event.data;
  if (request.kind === "resume") {
    resume?.();
    resume = null;
    return;
  }
  if (request.kind === "read") return reading?.read(request.light);
  if (request.kind === "check") return reading?.checkThese(request.lights);
  const job =
    request.kind === "file"
      ? readBlob(request.file)
      : request.kind === "bytes"
        ? readStream(streamOf(request.bytes), (reading = new Reading(request.bytes.byteLength)))
        : request.kind === "url"
          ? (request.light ? readLightIndex(request.light) : Promise.resolve(false)).then((read) => (read ? undefined : readUrl(request.url, request.secret)))
          : readShare(request.text, request.secret);
  job.catch((error: unknown) => scope.postMessage({ type: "error", error: asLoadError(error) }));
};

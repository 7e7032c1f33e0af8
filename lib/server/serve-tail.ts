// The live tail of one session file as Server-Sent Events. Events:
//   append  id: <end offset>, data: {"offset": N, "text": "<complete lines>"}: the file's bytes [N, id) decoded;
//           only whole lines are sent, so the client resumes at a line start and never sees a split character.
//   reset   data: {"reason": …}: the file no longer continues what was sent (cut, replaced, rewritten, removed);
//           the stream ends and the client reads the file again. {"reason": "too-large", "error": …}: the file
//           grew past PI_VIEWER_MAX_FILE_MB, the error says so (reading it again is refused with the same words).
// The `id` is the byte offset to resume from, so EventSource's own reconnect (Last-Event-ID) loses and repeats nothing.
import { sessionRoot } from "./library";
import { maxFileBytes } from "./limits";
import { openSessionFile, SessionPathError, type ResolvedSessionFile } from "./safe-path";
import { errorResponse, tooLargeMessage } from "./serve-session";
import { tailFile, type Tail, type TailHandlers, type TailOptions } from "./tail-file";

const HEARTBEAT_MS = 15_000;

/**
 * Open streams, ended when the server is asked to stop: `next start` waits for open connections before it exits.
 * A page's EventSource reconnects at once, over a kept-alive connection the closing server still serves: a
 * stream opened after the signal ends at once too.
 */
const openStreams = new Set<() => void>();
let shutdownHooked = false;
let shuttingDown = false;

function endOnShutdown(finish: () => void): void {
  if (shuttingDown) {
    finish();
    return;
  }
  openStreams.add(finish);
  if (shutdownHooked) return;
  shutdownHooked = true;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      shuttingDown = true;
      for (const end of [...openStreams]) end();
    });
  }
}

/** A byte offset as the client sends it: a plain non-negative integer. */
export function parseOffset(value: string | null): number {
  if (value === null || !/^\d{1,15}$/.test(value.trim())) throw new SessionPathError("invalid", "offset must be a byte offset (a non-negative integer)");
  return Number(value.trim());
}

export interface TailRequest {
  path: unknown;
  /** the `offset` query parameter: where the client's first read ended */
  offset: string | null;
  /** the Last-Event-ID header: where the last event this client got ended (wins over `offset`) */
  lastEventId: string | null;
  signal: AbortSignal;
}

/**
 * Tails a session file that resolveSessionPath checked, up to PI_VIEWER_MAX_FILE_MB unless told another limit.
 * Every read opens that very file (openSessionFile): a link or another file put at its path since the check is
 * never read, and ends the tail.
 */
export function tailSession(resolved: ResolvedSessionFile, offset: number, handlers: TailHandlers, options: TailOptions = {}): Promise<Tail> {
  const { archived } = resolved;
  return tailFile(resolved.file, offset, handlers, {
    maxBytes: maxFileBytes(),
    ...options,
    open: () => openSessionFile(resolved),
    ...(archived ? { stat: archived.stat, watch: archived.watch } : {}),
  });
}

export async function sessionTailResponse(request: TailRequest, options: TailOptions & { heartbeatMs?: number } = {}): Promise<Response> {
  let resolved: ResolvedSessionFile;
  let offset: number;
  try {
    offset = parseOffset(request.lastEventId || request.offset);
    const library = await sessionRoot();
    resolved = await library.resolve(request.path);
  } catch (error) {
    return errorResponse(error);
  }
  const maxBytes = options.maxBytes ?? maxFileBytes();
  const encoder = new TextEncoder();
  let tail: Tail | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let finished = false;
  let finishStream: (() => void) | null = null;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!finished) controller.enqueue(encoder.encode(text));
      };
      const finish = () => {
        if (finished) return;
        finished = true;
        openStreams.delete(finish);
        tail?.close();
        if (heartbeat) clearInterval(heartbeat);
        request.signal.removeEventListener("abort", finish);
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      finishStream = finish;
      request.signal.addEventListener("abort", finish);
      endOnShutdown(finish);
      // the comment makes the response start at once (EventSource reports "open"); retry: reconnect soon
      send(`retry: 2000\n: tailing from ${offset}\n\n`);
      try {
        tail = await tailSession(
          resolved,
          offset,
          {
            append(chunk) {
              send(`id: ${chunk.end}\nevent: append\ndata: ${JSON.stringify({ offset: chunk.offset, text: chunk.text })}\n\n`);
            },
            reset(reason, size) {
              const why =
                reason === "too-large" ? { reason, error: `${tooLargeMessage(size ?? maxBytes + 1, maxBytes)}; it is no longer followed` } : { reason };
              send(`event: reset\ndata: ${JSON.stringify(why)}\n\n`);
              finish();
            },
          },
          { ...options, maxBytes },
        );
      } catch (error) {
        // a refused open means another file is at the path now; anything else, that none is
        const reason = error instanceof SessionPathError ? "replaced" : "removed";
        send(`event: reset\ndata: ${JSON.stringify({ reason })}\n\n`);
        finish();
        return;
      }
      if (finished || request.signal.aborted) {
        tail.close(); // the stream ended while the file was being opened
        return finish();
      }
      heartbeat = setInterval(() => send(": ping\n\n"), options.heartbeatMs ?? HEARTBEAT_MS);
    },
    cancel() {
      finished = true;
      if (finishStream) openStreams.delete(finishStream);
      tail?.close();
      if (heartbeat) clearInterval(heartbeat);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      // no-transform: Next's gzip would otherwise hold events back until its buffer fills
      "cache-control": "no-cache, no-store, no-transform",
      "x-accel-buffering": "no",
      // one connection per stream, closed with it: a kept-alive idle socket would hold `next start` open on Ctrl-C
      connection: "close",
    },
  });
}

// Keeps an open library session up to date while pi writes it: /api/sessions/tail sends the lines appended after
// the bytes the page read (Server-Sent Events, whose id is the byte offset to resume from), and they go into the
// same SessionParser. The server sends whole lines only; the line the first read found without a newline is
// taken back (SessionParser.reopen) and read again in full. Whatever cannot go on in place reloads the file.
import type { Session } from "@/lib/session";

/** The live tail of a library file: "off" when the session is not followed (an upload, a URL, a sample). */
export type LiveStatus = "off" | "connecting" | "live" | "reconnecting" | "paused";

/** What hears about the tail: its connection, and each time the session grew. */
export interface TailSink {
  setLive(live: LiveStatus): void;
  /** the session grew in place; `leafMoved` when its leaf is another entry now */
  sessionChanged(leafMoved: boolean): void;
}

export interface LiveTail {
  pause(): void;
  resume(): void;
  stop(): void;
}

/** How long to wait before a new connection after the server refused one (EventSource gives up then). */
const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];

/** The tail of the page's session, for the Live button (one session is open per page). */
let current: LiveTail | null = null;

export const liveTail = {
  pause: () => current?.pause(),
  resume: () => current?.resume(),
};

/**
 * Follows `path` (a library path, as /api/sessions/raw takes it) from byte
 * `offset`, where the first read's complete lines ended. `reload` is called
 * when the file no longer continues what the page holds (cut, replaced,
 * rewritten, or a line that cannot be taken back): read it again from the start.
 */
export function startLiveTail(path: string, session: Session, offset: number, sink: TailSink, reload: () => void): LiveTail {
  let expected = offset;
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let stopped = false;

  const disconnect = () => {
    source?.close();
    source = null;
    if (retry) clearTimeout(retry);
    retry = null;
  };

  const startOver = () => {
    stop();
    reload();
  };

  const append = (event: MessageEvent<string>) => {
    const data = JSON.parse(event.data) as { offset: number; text: string };
    const end = Number(event.lastEventId);
    // the server resumes where this page says it is; anything else means the two disagree about the file
    if (data.offset !== expected || !(end > expected)) return startOver();
    const previousLeaf = session.leafId;
    if (!session.parser.reopen()) return startOver();
    session.parser.tree.entrySource?.appendText?.(data.text);
    session.parser.push(data.text);
    session.parser.end();
    expected = end;
    sink.sessionChanged(session.leafId !== null && session.leafId !== previousLeaf);
  };

  const connect = () => {
    disconnect();
    sink.setLive(failures === 0 ? "connecting" : "reconnecting");
    const url = `/api/sessions/tail?path=${encodeURIComponent(path)}&offset=${expected}`;
    const es = new EventSource(url);
    source = es;
    es.onopen = () => {
      failures = 0;
      sink.setLive("live");
    };
    es.addEventListener("append", append as EventListener);
    es.addEventListener("reset", () => startOver());
    es.onerror = () => {
      if (source !== es) return;
      // CONNECTING: the browser reconnects by itself and sends Last-Event-ID, our offset
      if (es.readyState === EventSource.CONNECTING) {
        sink.setLive("reconnecting");
        return;
      }
      // CLOSED: the server refused (an error status); try again later from the offset we hold
      disconnect();
      sink.setLive("reconnecting");
      retry = setTimeout(connect, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]);
    };
  };

  const stop = () => {
    if (stopped) return;
    stopped = true;
    disconnect();
    if (current === tail) current = null;
    sink.setLive("off");
  };

  const tail: LiveTail = {
    pause() {
      if (stopped) return;
      disconnect();
      sink.setLive("paused");
    },
    resume() {
      if (stopped || source) return;
      failures = 0;
      connect();
    },
    stop,
  };
  current = tail;
  connect();
  return tail;
}

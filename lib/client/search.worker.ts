// Runs a search through a session file's bytes as they stream (lib/session/features/search-stream.ts), for a
// session whose content the page reads on demand: the page keeps no content to search, and nothing here is kept
// but the hits. The hits found so far are posted as the file goes by; a newer query cancels the running one.
import { StreamSearch } from "@/lib/session/features/search-stream";
import type { SearchReply, SearchRequest, SearchSource } from "./search-protocol";

const scope = globalThis as unknown as {
  postMessage(reply: SearchReply): void;
  onmessage: ((event: MessageEvent<SearchRequest>) => void) | null;
};

/** how often the hits found so far are posted while the file goes by */
const PROGRESS_MS = 200;

let running: { id: number; stop: () => void } | null = null;

async function streamOf(source: SearchSource): Promise<ReadableStream<Uint8Array>> {
  if (source.kind === "blob") return source.blob.stream();
  let response: Response;
  try {
    response = await fetch(source.url, { credentials: "same-origin", cache: "no-store" });
  } catch {
    throw new Error("the session file could not be fetched: the server cannot be reached");
  }
  if (!response.ok || !response.body) throw new Error(`the session file could not be fetched: the server answered ${response.status}`);
  return response.body;
}

async function run(request: Extract<SearchRequest, { kind: "search" }>): Promise<void> {
  const search = new StreamSearch(request.query, request.entryLines, new Map(request.labels), request.limit);
  let stopped = false;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  running = {
    id: request.id,
    stop() {
      stopped = true;
      void reader?.cancel();
    },
  };
  const stream = await streamOf(request.source);
  if (stopped) return void stream.cancel();
  reader = stream.getReader();
  let posted = performance.now();
  for (;;) {
    const { done, value } = await reader.read();
    if (stopped) return;
    if (done) break;
    search.push(value);
    if (performance.now() - posted >= PROGRESS_MS) {
      posted = performance.now();
      scope.postMessage({ type: "result", id: request.id, result: search.result() });
    }
  }
  scope.postMessage({ type: "result", id: request.id, result: search.end() });
}

scope.onmessage = (event) => {
  const request = event.data;
  if (running && (request.kind === "search" || request.id === running.id)) {
    running.stop();
    running = null;
  }
  if (request.kind !== "search") return;
  run(request).catch((error: unknown) =>
    scope.postMessage({ type: "failed", id: request.id, message: error instanceof Error ? error.message : String(error) }),
  );
};

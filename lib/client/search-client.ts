// The page's side of search.worker.ts: one worker for the open session, one search at a time (a newer query
// cancels the one before), its hits reported as they are found.
import type { SearchResult } from "@/lib/session";
import type { SearchReply, SearchSource } from "./search-protocol";

let makeWorker: (() => Worker) | null = () => new Worker(new URL("./search.worker.ts", import.meta.url), { type: "module" });

/** The standalone viewer bundles no search worker: its sessions are searched in the page (null). */
export function setSearchWorkerFactory(factory: (() => Worker) | null): void {
  makeWorker = factory;
}

export function canStreamSearch(): boolean {
  return makeWorker !== null && typeof Worker !== "undefined";
}

export interface StreamedQuery {
  query: string;
  limit: number;
  /** the line of each entry of the page's index, in file order */
  entryLines: ArrayLike<number>;
  labels: [string, string][];
}

export class SearchStreamer {
  private worker: Worker | null = null;
  private nextId = 1;
  private current = 0;

  constructor(private readonly source: SearchSource) {}

  /** Starts a search (cancelling the one before); `report` hears its hits so far, then the last result. */
  run(query: StreamedQuery, report: (result: SearchResult) => void, fail: (message: string) => void): void {
    const worker = (this.worker ??= makeWorker!());
    const id = this.nextId++;
    this.current = id;
    worker.onmessage = (event: MessageEvent<SearchReply>) => {
      const reply = event.data;
      if (reply.id !== this.current) return;
      if (reply.type === "result") report(reply.result);
      else fail(reply.message);
    };
    worker.onerror = (event) => fail(event.message || "the search stopped");
    worker.postMessage({ kind: "search", id, source: this.source, ...query, entryLines: Int32Array.from(query.entryLines) });
  }

  cancel(): void {
    if (this.worker && this.current) this.worker.postMessage({ kind: "cancel", id: this.current });
    this.current = 0;
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    this.current = 0;
  }
}

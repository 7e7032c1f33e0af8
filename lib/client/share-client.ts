// The Share dialog's side of share.worker.ts: one worker per open dialog, holding the session it shares;
// requests answered by promise, in order.
import type { RuleSetId } from "@/lib/session";
import type { SharePreview } from "@/lib/share/preview";
import type { ShareReply, ShareRequest, ShareSource, ShareWritten } from "./share-protocol";

type Pending = { resolve: (reply: ShareReply) => void; reject: (error: Error) => void };

let makeWorker = (): Worker => new Worker(new URL("./share.worker.ts", import.meta.url), { type: "module" });

/** The standalone viewer has no worker file to load: it starts the worker from its own bundled source. */
export function setShareWorkerFactory(factory: () => Worker): void {
  makeWorker = factory;
}

type Omitted<T> = T extends unknown ? Omit<T, "id" | "kind"> : never;

export class ShareClient {
  private readonly worker = makeWorker();
  private readonly pending = new Map<number | null, Pending>();
  private nextId = 1;
  /** resolves once the worker has read and indexed the session */
  readonly loaded: Promise<void>;

  constructor(source: ShareSource, fileName: string, reader: RuleSetId) {
    this.worker.onmessage = (event: MessageEvent<ShareReply>) => this.settle(event.data);
    this.worker.onerror = (event) => this.failAll(new Error(event.message || "the share worker stopped"));
    this.loaded = this.ask(null, { kind: "load", source, fileName, reader }).then(() => undefined);
  }

  async preview(request: Omitted<Extract<ShareRequest, { kind: "preview" }>>): Promise<SharePreview> {
    const id = this.nextId++;
    const reply = await this.ask(id, { kind: "preview", id, ...request });
    if (reply.type !== "preview") throw new Error("unexpected answer from the share worker");
    return reply.preview;
  }

  async write(request: Omitted<Extract<ShareRequest, { kind: "write" }>>): Promise<ShareWritten> {
    const id = this.nextId++;
    const reply = await this.ask(id, { kind: "write", id, ...request });
    if (reply.type !== "written") throw new Error("unexpected answer from the share worker");
    return reply.file;
  }

  dispose(): void {
    this.worker.terminate();
    this.failAll(new Error("closed"));
  }

  private ask(id: number | null, request: ShareRequest): Promise<ShareReply> {
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(request);
    });
  }

  private settle(reply: ShareReply): void {
    const id = reply.type === "loaded" ? null : reply.id;
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    if (reply.type === "failed") waiting.reject(new Error(reply.message));
    else waiting.resolve(reply);
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}

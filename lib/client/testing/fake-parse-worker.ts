// A parse worker the loader's tests play by hand: it writes down what the page asks of it and sends the replies a
// test gives it, when the test gives them (parse-replies.ts makes them as the real worker would).
import type { ParseReply, ParseRequest } from "../parse-protocol";

export class FakeParseWorker {
  onmessage: ((event: MessageEvent<ParseReply>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  /** what the page posted, with what it transferred */
  readonly posted: { request: ParseRequest; transfer: readonly Transferable[] }[] = [];
  terminated = false;

  postMessage(request: ParseRequest, transfer: Transferable[] = []): void {
    this.posted.push({ request, transfer });
  }

  terminate(): void {
    this.terminated = true;
  }

  /** The page posted these, in order. */
  requests<K extends ParseRequest["kind"]>(kind: K): Extract<ParseRequest, { kind: K }>[] {
    return this.posted.flatMap(({ request }) => (request.kind === kind ? [request as Extract<ParseRequest, { kind: K }>] : []));
  }

  /**
   * Delivers replies to the page, even once it has terminated the worker: a reply already on its way when it did
   * reaches the page all the same, and the page must not act on it.
   */
  send(...replies: ParseReply[]): void {
    for (const data of replies) this.onmessage?.({ data } as MessageEvent<ParseReply>);
  }

  /** The worker failed outside any request it answers (an uncaught error in it). */
  crash(message: string): void {
    this.onerror?.({ message } as ErrorEvent);
  }

  asWorker(): Worker {
    return this as unknown as Worker;
  }
}

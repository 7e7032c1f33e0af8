// Lays out a big session's graph off the page's thread (the tidy tree of a 500k-entry session's cards is one walk of
// a few hundred milliseconds that cannot be cut into steps): it is sent the display tree's shape, and sends back
// each card's x.
import { tidyXs } from "@/lib/layout/tidy-layout";
import type { LayoutReply, LayoutRequest } from "./layout-protocol";

const scope = globalThis as unknown as {
  postMessage(reply: LayoutReply, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null;
};

scope.onmessage = (event) => {
  const { id, parents } = event.data;
  const xs = tidyXs(parents);
  scope.postMessage({ id, xs }, [xs.buffer]);
};

// Highlights big blocks of code off the page's thread: highlight.js's grammars walk the whole text in one call,
// which for a file of a few hundred kilobytes is a task the page would feel.
import { highlightLines } from "@/lib/render/highlight";
import type { HighlightReply, HighlightRequest } from "./highlight-protocol";

const scope = globalThis as unknown as {
  postMessage(reply: HighlightReply): void;
  onmessage: ((event: MessageEvent<HighlightRequest>) => void) | null;
};

scope.onmessage = (event) => {
  const { id, code, language } = event.data;
  scope.postMessage({ id, lines: highlightLines(code, language) });
};

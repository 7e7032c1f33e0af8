// The standalone viewer's workers come from the sources bundled into its script, as blob: URLs, since a page
// opened from disk may not load a worker file. Imported before the viewer's modules, which may start one at once.
import { setHighlightWorkerFactory } from "@/lib/client/highlight-client";
import { setLayoutWorkerFactory } from "@/lib/client/layout-client";
import { setParseWorkerFactory } from "@/lib/client/load-session";
import { setSearchWorkerFactory } from "@/lib/client/search-client";
import { setShareWorkerFactory } from "@/lib/client/share-client";

declare const PARSE_WORKER_SOURCE: string;
declare const SHARE_WORKER_SOURCE: string;

const scriptUrl = (source: string) => URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
const parseWorkerUrl = scriptUrl(PARSE_WORKER_SOURCE);
setParseWorkerFactory(() => new Worker(parseWorkerUrl));
// no search worker is bundled: a session read on demand is searched in the page, its content read a batch at a time
setSearchWorkerFactory(null);
// nor a layout worker: a share file's session is laid out in the page
setLayoutWorkerFactory(null);
// nor a highlight worker: code is highlighted in the page, the biggest blocks not at all (highlight-client.ts)
setHighlightWorkerFactory(null);
// empty in a share file, which does not share onward
if (SHARE_WORKER_SOURCE) {
  const shareWorkerUrl = scriptUrl(SHARE_WORKER_SOURCE);
  setShareWorkerFactory(() => new Worker(shareWorkerUrl));
}

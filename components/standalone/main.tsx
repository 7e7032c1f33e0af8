// The standalone viewer's entry (bundled by scripts/build-viewer.mjs): the app's own ViewerApp, mounted
// without Next.js. In a share file it opens the page's own data block; on a static host, ?src= or a file the
// user picks. The workers come from the sources bundled into this script, as blob: URLs, since a page
// opened from disk may not load a worker file.
import "@/lib/client/zod-jitless";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { setShareWorkerFactory } from "@/lib/client/share-client";
import { setSearchWorkerFactory } from "@/lib/client/search-client";
import { setLayoutWorkerFactory } from "@/lib/client/layout-client";
import { ViewerHostProvider } from "@/components/viewer/host";
import { setParseWorkerFactory } from "@/lib/client/load-session";
import { fragmentKey, readViewParams, viewLocation } from "@/components/viewer/view-params";
import { ViewerApp } from "@/components/viewer/ViewerApp";

declare const PARSE_WORKER_SOURCE: string;
declare const SHARE_WORKER_SOURCE: string;

const scriptUrl = (source: string) => URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
const parseWorkerUrl = scriptUrl(PARSE_WORKER_SOURCE);
setParseWorkerFactory(() => new Worker(parseWorkerUrl));
// no search worker is bundled: a session read on demand is searched in the page, its content read a batch at a time
setSearchWorkerFactory(null);
// nor a layout worker: a share file's session is laid out in the page
setLayoutWorkerFactory(null);
// empty in a share file, which does not share onward
if (SHARE_WORKER_SOURCE) {
  const shareWorkerUrl = scriptUrl(SHARE_WORKER_SOURCE);
  setShareWorkerFactory(() => new Worker(shareWorkerUrl));
}

const share = document.getElementById("pi-share")?.textContent?.trim() || null;
const host = share ? "share" : "static";
const params = readViewParams(new URLSearchParams(viewLocation(host === "share", window.location)));
// a static host has no library and no server files: only a URL (?src=) or a file picked in the page
const viewParams = host === "share" ? { ...params, file: null, src: null, upload: null } : { ...params, file: null, upload: null };

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <ViewerHostProvider value={host}>
      <ViewerApp params={viewParams} samples={false} sessionsDir={null} share={share} shareKey={fragmentKey(window.location.hash)} />
    </ViewerHostProvider>
  </StrictMode>,
);

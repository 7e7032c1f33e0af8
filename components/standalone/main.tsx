// The standalone viewer's entry (bundled by scripts/build-viewer.mjs): the app's own ViewerApp, mounted
// without Next.js. In a share file it opens the page's own data block; on a static host, ?src= or a file the
// user picks (its workers: worker-factories.ts).
import "@/lib/client/zod-jitless";
// before the viewer's modules: the viewer starts its parse worker as soon as it is imported
import "./worker-factories";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ViewerHostProvider } from "@/components/viewer/host";
import { fragmentKey, readViewParams, viewLocation } from "@/components/viewer/view-params";
import { ViewerApp } from "@/components/viewer/ViewerApp";

const share = document.getElementById("pi-share")?.textContent?.trim() || null;
const host = share ? "share" : "static";
const params = readViewParams(new URLSearchParams(viewLocation(host === "share", window.location)));
// a static host has no library and no server files: only a URL (?src=) or a file picked in the page
const viewParams = host === "share" ? { ...params, file: null, src: null, upload: null } : { ...params, file: null, upload: null };

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <ViewerHostProvider value={host}>
      <ViewerApp params={viewParams} samples={false} fileOnDisk={null} share={share} shareKey={fragmentKey(window.location.hash)} />
    </ViewerHostProvider>
  </StrictMode>,
);

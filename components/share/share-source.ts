// Where the Share dialog's worker reads the open session from, and the page that becomes a share file.
import type { SessionSource } from "@/lib/client/session-source";
import type { ShareSource } from "../../lib/client/share-protocol";

/** The session's own bytes as its source has them (absolute URLs: the worker resolves nothing against the page). */
export function shareSourceOf(source: SessionSource): ShareSource {
  switch (source.kind) {
    case "server":
    case "sample":
      return { kind: "url", url: new URL(`/api/sessions/raw?path=${encodeURIComponent(source.path)}`, window.location.href).href };
    case "url":
      return { kind: "url", url: new URL(source.url, window.location.href).href };
    case "upload":
      if (!source.file) throw new Error("the file you opened is no longer available; open it again to share it");
      return { kind: "blob", blob: source.file };
    case "share":
      throw new Error("a shared session is not shared again from its own file; open the original");
  }
}

/** Where the page that becomes a share file is served: the app's public folder, or beside the static viewer. */
export async function readShareTemplate(host: "server" | "static"): Promise<string> {
  const url = host === "server" ? "/viewer/share-template.html" : new URL("share-template.html", document.baseURI).href;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the viewer page for share files is missing (HTTP ${response.status}); build it with npm run build:viewer`);
  return response.text();
}

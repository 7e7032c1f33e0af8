// The bytes of the open session as its source has them, for the Share dialog: the shared file holds the
// session's own lines (the viewer's index keeps only cut-down text of big values).
import type { SessionSource } from "@/components/viewer/store";

/** Decoded as the worker decodes: a byte-order mark is kept, so the share shows the same problems as the file. */
function decode(buffer: ArrayBuffer): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(buffer);
}

async function fetched(url: string): Promise<string> {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`the session could not be read again (HTTP ${response.status})`);
  return decode(await response.arrayBuffer());
}

export async function readSourceText(source: SessionSource): Promise<string> {
  switch (source.kind) {
    case "server":
    case "sample":
      return fetched(`/api/sessions/raw?path=${encodeURIComponent(source.path)}`);
    case "url":
      return fetched(new URL(source.url, window.location.href).href);
    case "upload":
      if (!source.file) throw new Error("the file you opened is no longer available; open it again to share it");
      return decode(await source.file.arrayBuffer());
    case "share":
      throw new Error("a shared session cannot be shared again from its own file; open the original");
  }
}

/** Where the page that becomes a share file is served: the app's public folder, or beside the static viewer. */
export async function readShareTemplate(host: "server" | "static"): Promise<string> {
  const url = host === "server" ? "/viewer/share-template.html" : new URL("share-template.html", document.baseURI).href;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the viewer page for share files is missing (HTTP ${response.status}); build it with npm run build:viewer`);
  return response.text();
}

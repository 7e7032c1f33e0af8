// Scans and writes share files off the page (see share-protocol.ts): the redaction preview of a 100 MB
// session takes seconds, and so does masking, compressing and sealing it.
import "@/lib/client/zod-jitless"; // first: the page's CSP refuses eval, which zod would probe for
import { compileRedaction, type RedactionOptions } from "@/lib/export/redaction-rules";
import { Session } from "@/lib/session";
import { sharePreview } from "@/lib/share/preview";
import { lineRedactor } from "@/lib/share/redactor";
import { makeShareFile } from "@/lib/share/share-file";
import type { ShareReply, ShareRequest, ShareSource } from "./share-protocol";

const scope = globalThis as unknown as {
  postMessage(reply: ShareReply): void;
  onmessage: ((event: MessageEvent<ShareRequest>) => void) | null;
};

let loaded: { session: Session; text: string; fileName: string } | null = null;

/** Decoded as the parse worker decodes: a byte-order mark is kept, so the share shows the file's own problems. */
async function readSource(source: ShareSource): Promise<string> {
  let bytes: ArrayBuffer;
  if (source.kind === "blob") bytes = await source.blob.arrayBuffer();
  else {
    const response = await fetch(source.url, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`the session could not be read again (HTTP ${response.status})`);
    bytes = await response.arrayBuffer();
  }
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

function rulesOf(options: RedactionOptions | null) {
  if (!options) return null;
  const compiled = compileRedaction(options);
  if ("errors" in compiled) throw new Error(compiled.errors.map((e) => `${e.rule}: ${e.message}`).join("; "));
  return compiled.list.length > 0 ? compiled : null;
}

async function handle(request: ShareRequest): Promise<ShareReply> {
  if (request.kind === "load") {
    const text = await readSource(request.source);
    loaded = { session: Session.fromText(text, { reader: request.reader }), text, fileName: request.fileName };
    return { type: "loaded" };
  }
  if (!loaded) throw new Error("the session is not loaded yet");
  const rules = rulesOf(request.rules);
  if (request.kind === "preview") return { type: "preview", id: request.id, preview: sharePreview(loaded.session, loaded.text, request.choice, rules) };
  const redactor = rules ? lineRedactor(rules) : null;
  const file = await makeShareFile(request.template, loaded.session, loaded.text, loaded.fileName, {
    ...request.choice,
    tab: request.tab,
    redactor,
    record: redactor?.record,
    dropImages: request.dropImages,
    protection: request.protection,
  });
  return { type: "written", id: request.id, file: { html: file.html, key: file.key, manifest: file.manifest, sizes: file.sizes } };
}

scope.onmessage = (event) => {
  const request = event.data;
  handle(request).then(
    (reply) => scope.postMessage(reply),
    (error: unknown) =>
      scope.postMessage({ type: "failed", id: request.kind === "load" ? null : request.id, message: error instanceof Error ? error.message : String(error) }),
  );
};

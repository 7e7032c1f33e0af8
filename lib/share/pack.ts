// The data of a share file before sealing: gzip of the manifest line and the session's JSONL. Compressed
// before it is sealed (ciphertext does not compress), and read back as a stream so a big session is
// decompressed in pieces as the viewer indexes it.
import { readManifest, ShareManifestError, type ShareManifest } from "./manifest";

/** gzip through the platform's CompressionStream (browsers and Node ≥ 18 have it). */
export async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return collect((streamOf(bytes) as ReadableStream<BufferSource>).pipeThrough(new CompressionStream("gzip")));
}

export function gunzipStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return gunzipped(streamOf(bytes));
}

/**
 * Bytes as a stream, without a Blob: a worker that a file:// page starts in WebKit may not read any Blob
 * ("NotReadableError"), its own included.
 */
export function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** A gzip stream decompressed; it fails on damage (the gzip trailer's CRC-32 and length are checked). */
export function gunzipped(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  return (stream as ReadableStream<BufferSource>).pipeThrough(new DecompressionStream("gzip"));
}

export async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function packShare(manifest: ShareManifest, sessionText: string): Promise<Uint8Array> {
  return gzip(new TextEncoder().encode(`${JSON.stringify(manifest)}\n${sessionText}`));
}

/** The manifest may not be larger than this: a longer first line is not a manifest. */
const MANIFEST_MAX = 1 << 20;

/** Splits the decompressed data into its checked manifest and the stream of the session's bytes. */
export async function unpackShareStream(data: ReadableStream<Uint8Array>): Promise<{ manifest: ShareManifest; session: ReadableStream<Uint8Array> }> {
  const reader = data.getReader();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      // the reason matters: damage reads "incorrect header check", a browser that refuses the read says so
      const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new ShareManifestError(`The shared data could not be read (${why}).`);
    }
    if (next.done) throw new ShareManifestError("The shared data ends before its manifest line does.");
    const chunk = next.value;
    const newline = chunk.indexOf(0x0a);
    if (newline < 0) {
      head.push(chunk);
      headBytes += chunk.byteLength;
      if (headBytes > MANIFEST_MAX) throw new ShareManifestError("The shared data does not start with a manifest (its first line is too long).");
      continue;
    }
    head.push(chunk.subarray(0, newline));
    const manifest = readManifest(new TextDecoder().decode(joined(head)));
    const rest = chunk.subarray(newline + 1);
    return { manifest, session: prepended(rest, reader) };
  }
}

function joined(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** The rest of a stream whose reader has been read from, with the unread part of the last chunk in front. */
export function prepended(first: Uint8Array, reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.byteLength > 0) controller.enqueue(first);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** The whole of a share's data at once (tests, the CLI's own check). */
export async function unpackShare(packed: Uint8Array): Promise<{ manifest: ShareManifest; text: string }> {
  const { manifest, session } = await unpackShareStream(gunzipStream(packed));
  // a BOM is part of the session (pi refuses such a file, and the viewer says so): kept
  return { manifest, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(await collect(session)) };
}

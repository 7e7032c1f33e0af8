// Bytes as web streams, for answers sent as they are read: a file's bytes by range, and streams one after another.
import type { SessionFileHandle } from "./safe-path";

/** The parts' bytes one after another (cancelling the stream cancels the streams not yet read). */
export function chained(parts: (Uint8Array | ReadableStream<Uint8Array>)[]): ReadableStream<Uint8Array> {
  const queue = [...parts];
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!reader) {
          const part = queue.shift();
          if (part === undefined) return controller.close();
          if (part instanceof Uint8Array) return controller.enqueue(part);
          reader = part.getReader();
        }
        const next = await reader.read();
        if (!next.done) return controller.enqueue(next.value);
        reader = null;
      }
    },
    async cancel(reason) {
      const open = queue.filter((part): part is ReadableStream<Uint8Array> => !(part instanceof Uint8Array));
      await Promise.all([reader?.cancel(reason), ...open.map((stream) => stream.cancel(reason))]);
    },
  });
}

/** The file's bytes from `start`, or up to `end`; the file is closed at the end (or when the stream is cancelled). */
export function streamOf(handle: SessionFileHandle, end?: number, start = 0): ReadableStream<Uint8Array> {
  if (end === start) {
    void handle.close();
    return new ReadableStream({ start: (controller) => controller.close() });
  }
  const input = handle.createReadStream({ highWaterMark: 1 << 20, start, ...(end === undefined ? {} : { end: end - 1 }) });
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await it.next();
      if (next.done) controller.close();
      else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
    },
    cancel() {
      input.destroy();
    },
  });
}

// What the server sends of a session's bytes (its light index's frames) and the snapshot it keeps of their index:
// how the tests make a library file's reopen without a server.
import { endFrame, LightFormatCheck, LightFrameWriter } from "../read/light-frames";
import { LightReader, type LightChunk } from "../read/light-lines";
import { SnapshotBuilder } from "../read/snapshot-builder";

const encoder = new TextEncoder();

/** What the server sends for `bytes` read `chunk` bytes at a time, and whether it would send it (light lines serve). */
export function framesOf(bytes: Uint8Array, chunk: number): { frames: Uint8Array; light: boolean | null } {
  const reader = new LightReader(chunk);
  const writer = new LightFrameWriter();
  const format = new LightFormatCheck();
  const out: Uint8Array[] = [];
  let light: boolean | null = null;
  const take = (c: LightChunk | null) => {
    if (!c) return;
    light ??= format.check(c);
    out.push(writer.frame(c));
  };
  for (let at = 0; at < bytes.length; at += chunk) take(reader.push(bytes.subarray(at, at + chunk)));
  take(reader.flush());
  out.push(endFrame(encoder.encode(reader.end()), reader.complete, bytes.length));
  const frames = new Uint8Array(out.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of out) {
    frames.set(f, at);
    at += f.length;
  }
  return { frames, light };
}

/** The snapshot the server makes of `frames`, given `piece` bytes at a time (null when they make none). */
export function snapshotOf(frames: Uint8Array, piece = frames.length): Uint8Array | null {
  const builder = new SnapshotBuilder();
  for (let at = 0; at < frames.length; at += piece) builder.push(frames.subarray(at, at + piece));
  return builder.end();
}

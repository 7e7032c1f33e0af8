// What a page makes of a GET /api/sessions/light answer, for the tests of the light index and its cache: the frames
// read as the page's worker reads them, the index restored from the snapshot when one came first, content read
// from the file's text by range.
import { Session } from "../../session";
import { LightFrameReader } from "../../session/read/light-frames";
import { LightSessionReader } from "../../session/read/light-session";
import { RangedLines } from "../../session/read/ranged-lines";

export interface PageRead {
  session: Session;
  /** the frames after the snapshot (all of them when none came) */
  bytes: Uint8Array;
  /** the snapshot came and restored the index */
  restored: boolean;
  /** the snapshot's bytes when one came */
  snapshot: Uint8Array | null;
}

export async function readLightResponse(response: Response, text: string, damage?: (snapshot: Uint8Array) => Uint8Array): Promise<PageRead> {
  let bytes = new Uint8Array(await response.arrayBuffer());
  const file = new TextEncoder().encode(text);
  const reader = new LightSessionReader(new RangedLines(async (start, end) => file.slice(start, end)));
  reader.keepLightText();
  let session: Session | null = null;
  let snapshot: Uint8Array | null = null;
  for (const frame of new LightFrameReader().push(bytes)) {
    if (frame.type === "snapshot") {
      snapshot = frame.snapshot;
      reader.restoreFrom(damage ? damage(frame.snapshot.slice()) : frame.snapshot);
      bytes = bytes.subarray(5 + frame.snapshot.byteLength);
    } else if (frame.type === "lines") reader.push(frame.chunk);
    else session = new Session(reader.end(new TextDecoder().decode(frame.last)));
  }
  if (!session) throw new Error("the answer ended before its end frame");
  return { session, bytes, restored: reader.restoredIndex, snapshot };
}

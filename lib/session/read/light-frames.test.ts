// The server's light index of a file (light-frames.ts), read back in pieces of any size, gives the page the same
// index as the file's own bytes, and with content read from the file by range, the same answers.
import { describe, expect, it } from "vitest";
import { Session, TextComingError } from "..";
import { cases, sameAnswers } from "../testing/light-answers";
import { LightFrameReader, type LightFrame } from "./light-frames";
import { LightSessionReader } from "./light-session";
import { snapshotParts } from "./object-snapshot";
import { framesOf, snapshotOf } from "../testing/light-frames-of";
import { RangedLines } from "./ranged-lines";
import { restoreSession } from "./session-snapshot";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The page's side: frames read `piece` bytes at a time into an index whose content is read from `bytes` by range. */
function sessionOf(frames: Uint8Array, piece: number, bytes: Uint8Array): { session: Session; complete: number } {
  const lines = new RangedLines(async (start, end) => bytes.slice(start, end), { name: "x.jsonl", budget: 1 << 12 });
  const reader = new LightSessionReader(lines);
  const frameReader = new LightFrameReader();
  let session: Session | null = null;
  let complete = -1;
  for (let at = 0; at < frames.length; at += piece) {
    for (const frame of frameReader.push(frames.subarray(at, at + piece))) {
      if (frame.type === "lines") reader.push(frame.chunk);
      else if (frame.type === "end") {
        session = new Session(reader.end(decoder.decode(frame.last)));
        complete = frame.complete;
        expect(frame.total).toBe(bytes.length);
      }
    }
  }
  expect(frameReader.complete).toBe(true);
  return { session: session!, complete };
}

describe("a session read from the server's light index", () => {
  it.each(cases())(
    "$name answers as the whole text does",
    async ({ name, text }) => {
      const bytes = encoder.encode(text);
      const { frames, light } = framesOf(bytes, 1 + (text.length % 7919));
      // refused exactly where the page reads the file whole (an older format migrated at once, a v4 log): the server
      // sends the file itself then
      const whole = Session.fromText(text).parser;
      if (light !== null) expect(light, name).toBe(whole.sourceVersion === 3 && !whole.isV4Log);
      if (light === false) return;
      const { session, complete } = sessionOf(frames, 1 + (text.length % 4093), bytes);
      expect(complete).toBe(text.lastIndexOf("\n") === -1 ? 0 : encoder.encode(text.slice(0, text.lastIndexOf("\n") + 1)).length);
      await sameAnswers(Session.fromText(text), session, name, true);
    },
    300_000,
  );

  it("reads the same frames when each piece's buffer is transferred once its frames are out (as the page's worker does)", () => {
    /** a frame as plain values: its views die with a detached buffer, these do not */
    const text = (bytes: ArrayBufferView) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
    const plain = (frame: LightFrame) =>
      frame.type === "lines"
        ? { ...frame.chunk, light: text(frame.chunk.light), raws: frame.chunk.raws.map(text), cut: text(frame.chunk.cut), offsets: text(frame.chunk.offsets) }
        : frame.type === "end"
          ? { ...frame, last: text(frame.last) }
          : { snapshot: text(frame.snapshot) };
    let views = 0;
    for (const { name, text } of cases()) {
      const bytes = encoder.encode(text);
      const { frames, light } = framesOf(bytes, 1 + (text.length % 997));
      if (light === false) continue;
      const piece = 1 + (text.length % 4093);
      const whole = new LightFrameReader().push(frames).map(plain);
      const reader = new LightFrameReader();
      const moved: ReturnType<typeof plain>[] = [];
      for (let at = 0; at < frames.length; at += piece) {
        const part = frames.slice(at, at + piece);
        const got = reader.push(part);
        views += got.filter((frame) => frame.type === "lines" && frame.chunk.light.buffer === part.buffer).length;
        // what the worker posts: the piece's buffer moves with its frames (and is detached here)
        moved.push(...structuredClone(got, { transfer: [part.buffer] }).map(plain));
        expect(part.byteLength).toBe(0);
      }
      expect(moved, name).toEqual(whole);
    }
    // frames within one piece were passed on as views of it, not copied
    expect(views).toBeGreaterThan(10);
  });

  it("keeps the bytes of a changed line only where its light text does not parse", () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const good = JSON.stringify({ type: "message", id: "a", parentId: null, timestamp: "t", message: { role: "user", content: "x".repeat(5000) } });
    const broken = `{"type":"message","id":"é1","parentId":null "message":{"role":"user","content":"ü"}}`;
    const bytes = encoder.encode(`${header}\n${good}\n${broken}\n`);
    const { frames } = framesOf(bytes, 1 << 16);
    const [first] = new LightFrameReader().push(frames);
    if (first?.type !== "lines") throw new Error("no lines frame");
    const { cut, raws } = first.chunk;
    expect(Array.from(cut)).toEqual([2, -1, 0, good.length, 2, 3, 0, 0, encoder.encode(broken).length, 1]);
    expect(decoder.decode(raws[0])).toBe(broken);
    expect(frames.length).toBeLessThan(bytes.length);
  });

  it("refuses bytes that are not frames", () => {
    expect(() => new LightFrameReader().push(new Uint8Array([7, 0, 0]))).toThrow(/damaged/);
  });
});

describe("the snapshot the server makes of a kept light index (SnapshotBuilder)", () => {
  it.each(cases().filter((c) => !c.name.startsWith("generated")))(
    "$name: restored, it knows the order of every entry's children without reading an entry",
    ({ name, text }) => {
      const bytes = encoder.encode(text);
      const { frames, light } = framesOf(bytes, 1 + (text.length % 6151));
      if (light === false) return;
      const snapshot = snapshotOf(frames, 1 + (text.length % 3041));
      if (!snapshot) throw new Error(`${name}: no snapshot`);
      const refusing = {
        entry(_slot: number, line: number): never {
          throw new Error(`line ${line} was read`);
        },
      };
      const restored = restoreSession(snapshot, new RangedLines(async () => new Uint8Array(0)), refusing, 8).tree;
      const whole = Session.fromText(text).tree;
      expect(restored.entryCount, name).toBe(whole.entryCount);
      for (let slot = 0; slot < whole.entryCount; slot++) {
        const id = whole.idAt(slot);
        if (id !== undefined) expect(restored.children(id), `${name}: children of ${id}`).toEqual(whole.children(id));
      }
      expect(restored.roots, name).toEqual(whole.roots);
    },
  );

  it("makes nothing of frames that never end", () => {
    const text = cases().find((c) => c.name.startsWith("ca-branching"))!.text;
    const { frames } = framesOf(encoder.encode(text), 1 << 10);
    // all but the end frame's last byte
    expect(snapshotOf(frames.subarray(0, frames.length - 1))).toBeNull();
  });
});

describe("a session shown from the server's snapshot before its frames come", () => {
  it.each(cases())(
    "$name answers as the whole text does before any line came, with some, and with all",
    async ({ name, text }) => {
      const bytes = encoder.encode(text);
      const { frames, light } = framesOf(bytes, 1 + (text.length % 6151));
      if (light === false) return;
      const snapshot = snapshotOf(frames, 1 + (text.length % 3041));
      expect(snapshot, name).not.toBeNull();
      const reader = new LightSessionReader(new RangedLines(async (start, end) => bytes.slice(start, end), { name: "x.jsonl" }));
      reader.keepLightText(8);
      let reads = 0;
      // as the worker hands it on: its JSON parsed, through a structured clone
      const restored = reader.restoreNow(structuredClone(snapshotParts(snapshot!)), (start, end) => {
        reads++;
        return frames.slice(start, end);
      });
      if (!restored) throw new Error(`${name}: not restored`);
      const whole = Session.fromText(text);
      // the order of every entry's children came with the snapshot: no entry is read to know it
      for (let slot = 0; slot < restored.tree.entryCount; slot++) {
        const id = restored.tree.idAt(slot);
        if (id !== undefined) expect(restored.tree.children(id), name).toEqual(whole.tree.children(id));
      }
      expect(reads, name).toBe(0);
      const shown = new Session(restored, { schemaChecked: restored.schemaCheckedAsRead! });
      // every entry read from its frame by range
      await sameAnswers(whole, shown, `${name}, no line come`, true);
      const framed = [...new LightFrameReader().push(frames)];
      const lines = framed.flatMap((f) => (f.type === "lines" ? [f.chunk] : []));
      if (restored.tree.size > 0) expect(reads, name).toBeGreaterThan(0);
      if (name.startsWith("generated")) return;
      // half the lines come: the entries past them are read early, the others from the lines
      for (const chunk of lines.slice(0, lines.length >> 1)) reader.push(chunk);
      await sameAnswers(whole, shown, `${name}, half the lines come`, true);
      for (const chunk of lines.slice(lines.length >> 1)) reader.push(chunk);
      const end = framed.at(-1)!;
      if (end.type !== "end") throw new Error("no end frame");
      expect(reader.end(decoder.decode(end.last))).toBe(restored);
      const before = reads;
      await sameAnswers(whole, shown, `${name}, all the lines come`, true);
      // with all the lines, none is read by range again
      expect(reads, name).toBe(before);
    },
    300_000,
  );

  it("says which frame it could not read, and what came back instead of it", () => {
    const text = cases().find((c) => c.name.startsWith("ca-branching"))!.text;
    const bytes = encoder.encode(text);
    const { frames } = framesOf(bytes, 1 << 10);
    const snapshot = snapshotOf(frames)!;
    const answers: [string, (start: number, end: number) => Uint8Array][] = [
      ["came back as", (start, end) => frames.slice(start, end - 1)],
      ["holds no frame of lines", (start, end) => new Uint8Array(end - start)],
      [
        "server answered 412",
        () => {
          throw new Error("The session's entries could not be read: the server answered 412 to a byte range of its index.");
        },
      ],
    ];
    for (const [message, read] of answers) {
      const reader = new LightSessionReader(new RangedLines(async (start, end) => bytes.slice(start, end)));
      reader.keepLightText(8);
      const restored = reader.restoreNow(snapshot, read)!;
      const last = restored.tree.size - 1;
      expect(() => restored.tree.entryAt(last), message).toThrow(message);
    }
  });

  it("reads a refused frame without waiting on the caller (readRefused), once however many ask, and none the stream brought", async () => {
    const text = cases().find((c) => c.name === "ca-large")!.text;
    const bytes = encoder.encode(text);
    const { frames } = framesOf(bytes, 1 << 10);
    const snapshot = snapshotOf(frames)!;
    const whole = Session.fromText(text);
    const reader = new LightSessionReader(new RangedLines(async (start, end) => bytes.slice(start, end)));
    reader.keepLightText(8);
    let atOnce = 0;
    const fetched: number[] = [];
    const restored = reader.restoreNow(
      snapshot,
      (start, end) => (atOnce++, frames.slice(start, end)),
      async (start, end) => (fetched.push(start), frames.slice(start, end)),
    )!;
    const tree = restored.tree;
    const last = tree.entryCount - 1;
    const lastId = () => tree.entryAt(last).id;
    expect(tree.textRefused).toBe(false);
    expect(() => tree.readingAtMost(0, lastId)).toThrow(TextComingError);
    expect(tree.textRefused).toBe(true);
    // two callers ask at once: the frame is fetched once
    await Promise.all([tree.readRefused(), tree.readRefused()]);
    expect(fetched).toHaveLength(1);
    expect(tree.textRefused).toBe(false);
    expect(tree.readingAtMost(0, lastId)).toEqual({ value: whole.tree.entryAt(last).id, exceeded: false });
    expect(atOnce).toBe(0);
    // the first frame, refused, then brought by the stream before it is fetched: not fetched
    expect(() => tree.readingAtMost(0, () => tree.entryAt(0).id)).toThrow(TextComingError);
    const [firstLines] = new LightFrameReader().push(frames);
    if (firstLines?.type !== "lines") throw new Error("no lines frame first");
    reader.push(firstLines.chunk);
    await tree.readRefused();
    expect(fetched).toHaveLength(1);
    expect(tree.readingAtMost(0, () => tree.entryAt(0).id)).toEqual({ value: whole.tree.entryAt(0).id, exceeded: false });
    expect(atOnce).toBe(0);
  });

  it("lets an answer read only so many frames before the text came, then waits for it (readingAtMost, textCame)", async () => {
    const text = cases().find((c) => c.name === "ca-large")!.text;
    const bytes = encoder.encode(text);
    const { frames } = framesOf(bytes, 1 << 10);
    const snapshot = snapshotOf(frames)!;
    const reader = new LightSessionReader(new RangedLines(async (start, end) => bytes.slice(start, end)));
    reader.keepLightText(8);
    let reads = 0;
    const restored = reader.restoreNow(snapshot, (start, end) => (reads++, frames.slice(start, end)))!;
    const tree = restored.tree;
    const whole = Session.fromText(text);
    const everyEntry = () => Array.from({ length: tree.entryCount }, (_, slot) => tree.entryAt(slot).id);
    expect(tree.textComing).toBe(true);
    let came = false;
    void tree.textCame().then(() => (came = true));
    // within its frames it answers; past them it is told (also when the answer catches the error itself)
    expect(tree.readingAtMost(2, () => tree.entryAt(0).id)).toEqual({ value: whole.tree.entryAt(0).id, exceeded: false });
    expect(() => tree.readingAtMost(2, everyEntry)).toThrow(TextComingError);
    expect(reads).toBe(3);
    const caught = tree.readingAtMost(2, () => {
      try {
        return everyEntry();
      } catch (error) {
        return error instanceof TextComingError ? "waiting" : "other";
      }
    });
    expect(caught).toEqual({ value: "waiting", exceeded: true });
    // with no limit every entry is read, a frame at a time
    expect(everyEntry()).toEqual(whole.tree.entries.map((e) => e.id));
    await Promise.resolve();
    expect(came).toBe(false);
    // the lines come: nothing is read early any more, and whatever waited is told
    const framed = new LightFrameReader().push(frames);
    for (const frame of framed) if (frame.type === "lines") reader.push(frame.chunk);
    const end = framed.at(-1)!;
    if (end.type !== "end") throw new Error("no end frame");
    reader.end(decoder.decode(end.last));
    await tree.textCame();
    expect(came).toBe(true);
    expect(tree.textComing).toBe(false);
    const before = reads;
    expect(tree.readingAtMost(0, everyEntry)).toEqual({ value: whole.tree.entries.map((e) => e.id), exceeded: false });
    expect(reads).toBe(before);

    // lines that stop coming for good: what waited goes on, and reads early as much as it asks
    const stopped = new LightSessionReader(new RangedLines(async (start, end) => bytes.slice(start, end)));
    stopped.keepLightText(8);
    const early = stopped.restoreNow(snapshot, (start, end) => frames.slice(start, end))!.tree;
    expect(() => early.readingAtMost(1, () => Array.from({ length: early.entryCount }, (_, slot) => early.entryAt(slot).id))).toThrow(TextComingError);
    stopped.textStopped();
    await early.textCame();
    expect(early.textComing).toBe(true);
    expect(early.readingAtMost(0, () => Array.from({ length: early.entryCount }, (_, slot) => early.entryAt(slot).id))).toEqual({
      value: whole.tree.entries.map((e) => e.id),
      exceeded: false,
    });
  });
});

// Cancel (the user gave up) and dispose (the page went away, or started another load) at each point of a load:
// before the session is shown it ends there, and nothing the worker or a read still sends reaches the store;
// once it is shown, Cancel has nothing left to stop.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CANCELLED } from "./load-session";
import { bytesOf, lightIndexReplies, schemaReply, streamReplies } from "./testing/parse-replies";
import { cutSession, libraryTarget, pageAt, serveRanges, settle, startLoad, until, uploadTarget, type Load } from "./testing/load-harness";

const text = cutSession("cc", 6);
const bytes = bytesOf(text);
const upload = () => uploadTarget(new File([bytes], "picked.jsonl"));
const library = () => libraryTarget("--home-dev-load--/c.jsonl");

beforeEach(() => pageAt());
afterEach(() => vi.unstubAllGlobals());

/** Whatever the worker sends later, and a late Cancel, change nothing the store or the live tail hears. */
async function expectDeaf(load: Load, late: Parameters<Load["worker"]["send"]>): Promise<void> {
  const told = [...load.told];
  const loaded = [...load.loaded];
  load.worker.send(...late);
  load.worker.crash("too late");
  load.job.cancel();
  load.job.dispose();
  await settle();
  expect(load.told).toEqual(told);
  expect(load.loaded).toEqual(loaded);
}

describe("Cancel before the session is shown", () => {
  it("while its lines are read: says so once, stops the worker, and what was still queued or comes later is dropped", async () => {
    const load = startLoad(upload());
    const replies = streamReplies(bytes, 500);
    // the page reads a slice per task: most of these are still queued when Cancel comes
    load.worker.send(...replies.slice(0, -1));
    load.job.cancel();
    expect(load.told.at(-1)).toBe(`fail ${CANCELLED}`);
    expect(load.told.filter((t) => t.startsWith("fail"))).toHaveLength(1);
    expect(load.worker.terminated).toBe(true);
    await expectDeaf(load, [replies.at(-1)!, schemaReply(replies)]);
    expect(load.shown).toEqual([]);
  });

  it("while a restored index reads ahead what it shows first: it is never shown, and the worker is not let go on", async () => {
    let release = () => {};
    const { replies, frames } = lightIndexReplies(bytes, { snapshot: "kept" });
    const held = new Promise<void>((resolve) => (release = resolve));
    const { ranges } = serveRanges({ file: bytes, frames, framesHeld: held });
    const load = startLoad(library());
    load.worker.send(replies[0]!, replies[1]!);
    await until(() => ranges.length > 0, "the read-ahead");
    load.job.cancel();
    expect(load.told).toEqual(["start server c.jsonl 0", `fail ${CANCELLED}`]);
    release();
    await expectDeaf(load, replies.slice(2));
    expect(load.shown).toEqual([]);
    expect(load.worker.requests("resume")).toEqual([]);
  });

  it("while its index is finished (a session without entries waits for its notes): ends there", async () => {
    const header = `${text.split("\n")[0]}\n`;
    const load = startLoad(uploadTarget(new File([header], "empty.jsonl")));
    const replies = streamReplies(bytesOf(header), 4096);
    load.worker.send(...replies);
    await settle();
    expect(load.told.at(-1)).toMatch(/^progress/);
    load.job.cancel();
    expect(load.told.at(-1)).toBe(`fail ${CANCELLED}`);
    expect(load.worker.terminated).toBe(true);
    await expectDeaf(load, [schemaReply(replies)]);
    expect(load.shown).toEqual([]);
  });
});

describe("Cancel once the session is shown", () => {
  it("does nothing: its notes still come", async () => {
    const load = startLoad(upload());
    const replies = streamReplies(bytes, 4096);
    load.worker.send(...replies);
    await until(() => load.shown.length > 0);
    load.job.cancel();
    expect(load.told.some((t) => t.startsWith("fail"))).toBe(false);
    expect(load.worker.terminated).toBe(false);
    load.worker.send(schemaReply(replies));
    await settle();
    expect(load.told.at(-1)).toBe("diagnostics");
  });

  it("shown before its lines came: does nothing, and they still come and hand the session to the live tail", async () => {
    const { replies, frames } = lightIndexReplies(bytes, { snapshot: "kept" });
    serveRanges({ file: bytes, frames });
    const load = startLoad(library());
    load.worker.send(replies[0]!, replies[1]!);
    await until(() => load.shown.length > 0);
    load.job.cancel();
    expect(load.worker.terminated).toBe(false);
    load.worker.send(...replies.slice(2));
    await until(() => load.loaded.length > 0);
    expect(load.loaded[0]!.session).toBe(load.shown[0]);
    expect(load.told.some((t) => t.startsWith("fail"))).toBe(false);
  });
});

describe("dispose (another load starts, or the page goes away)", () => {
  it("while the lines are read: stops the worker and tells the store nothing, then or later (a late Cancel included)", async () => {
    const load = startLoad(upload());
    const replies = streamReplies(bytes, 500);
    load.worker.send(...replies.slice(0, 3));
    const told = [...load.told];
    load.job.dispose();
    expect(load.worker.terminated).toBe(true);
    expect(load.told).toEqual(told);
    await expectDeaf(load, [...replies.slice(3), schemaReply(replies)]);
    expect(load.shown).toEqual([]);
  });

  it("once shown, before its notes came: the session stays as it was, the notes are not taken", async () => {
    const load = startLoad(upload());
    const replies = streamReplies(bytes, 4096);
    load.worker.send(...replies);
    await until(() => load.shown.length > 0);
    load.job.dispose();
    expect(load.worker.terminated).toBe(true);
    await expectDeaf(load, [schemaReply(replies)]);
    expect(load.shown[0]!.schemaPending).toBe(true);
  });

  it("a second load after a first was disposed hears only its own worker", async () => {
    const first = startLoad(upload());
    const replies = streamReplies(bytes, 4096);
    first.job.dispose();
    const second = startLoad(library());
    first.worker.send(...replies, schemaReply(replies));
    await settle();
    expect(first.told).toEqual([`start upload picked.jsonl ${bytes.length}`]);
    expect(second.told).toEqual(["start server c.jsonl 0"]);
    expect(second.worker).not.toBe(first.worker);
  });
});

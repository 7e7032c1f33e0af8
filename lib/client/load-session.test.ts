// Each way a session arrives, loaded to the end: what the store hears and in which order, the session it gets
// (its answers equal to the whole file's, its content read again from where it lives), and what the worker is
// asked; the parse worker is played by hand (testing/fake-parse-worker.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Session } from "@/lib/session";
import type { SessionEntry } from "@/lib/session/types";
import { bytesOf, endOf, lightIndexReplies, linesOf, schemaReply, streamReplies } from "./testing/parse-replies";
import {
  cutSession,
  libraryTarget,
  manifestOf,
  pageAt,
  serveRanges,
  settle,
  shareTarget,
  startLoad,
  until,
  uploadTarget,
  urlTarget,
} from "./testing/load-harness";

const text = cutSession("aa");
const bytes = bytesOf(text);
const whole = Session.fromText(text);
const ids = ["aa000001", "aa000002", "aa000003", "aa000004"];

/** Every entry's full content, read from wherever the session reads it. */
async function contents(session: Session): Promise<string[]> {
  return session.withContent(() => ids.map((id) => JSON.stringify(session.tree.full(session.tree.get(id) as SessionEntry))));
}

const measured = () => performance.getEntriesByType("measure").map((m) => m.name);

beforeEach(() => {
  pageAt();
  performance.clearMeasures();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The session answers as the whole file does: entries, leaf, notes (once its check came), content. */
async function expectWhole(session: Session): Promise<void> {
  expect(session.tree.size).toBe(whole.tree.size);
  expect(session.leafId).toBe(whole.leafId);
  expect(session.diagnostics()).toEqual(whole.diagnostics());
  expect(await contents(session)).toEqual(await contents(whole));
}

describe("an upload (a picked File)", () => {
  it("is read by the worker, shown at its end, its notes added when checked, its content read from the File again", async () => {
    const file = new File([bytes], "picked.jsonl");
    const { ranges } = serveRanges({ file: new Uint8Array(0) });
    const load = startLoad(uploadTarget(file));
    expect(load.worker.posted.map((p) => p.request)).toEqual([{ kind: "file", file }]);
    const replies = streamReplies(bytes, 700);
    load.worker.send(...replies);
    await until(() => load.shown.length > 0);
    const progress = replies.flatMap((r) => (r.type === "lines" || r.type === "progress" || r.type === "end" ? [`progress ${r.done}/${r.total}`] : []));
    expect(load.told).toEqual([`start upload picked.jsonl ${bytes.length}`, ...progress, "ready null"]);
    const [session] = load.shown;
    // shown before its check came: no schema notes yet, handed to the live tail with the bytes read
    expect(session!.schemaPending).toBe(true);
    expect(load.loaded).toEqual([{ session, complete: bytes.length }]);
    // every slice's light lines went back to the worker for its check, the buffers it sent
    const lines = linesOf(replies);
    expect(load.worker.requests("read")).toHaveLength(lines.length);
    expect(load.worker.posted.filter((p) => p.request.kind === "read").every((p) => p.transfer.length === 1)).toBe(true);
    expect(load.worker.terminated).toBe(false);
    load.worker.send(schemaReply(replies));
    await settle();
    expect(load.told.at(-1)).toBe("diagnostics");
    expect(load.worker.terminated).toBe(true);
    await expectWhole(session!);
    expect(session!.tree.readsOnDemand).toBe(true);
    expect(ranges).toEqual([]); // read from the File, never sent anywhere
    expect(measured()).toEqual(["session:parsed", "session:read", "session:ready", "session:schema"]);
  });

  it("on a page opened from disk, is read by the page and handed to the worker as bytes, its content kept", async () => {
    pageAt("file:///home/dev/viewer.html");
    const file = new File([bytes], "picked.jsonl");
    const load = startLoad(uploadTarget(file));
    await until(() => load.worker.posted.length > 0);
    const { request, transfer } = load.worker.posted[0]!;
    expect(request.kind).toBe("bytes");
    expect(request.kind === "bytes" && new TextDecoder().decode(request.bytes)).toBe(text);
    expect(transfer).toHaveLength(1);
    const replies = streamReplies(bytes, 4096);
    load.worker.send(...replies, schemaReply(replies));
    await until(() => load.told.includes("diagnostics"));
    expect(load.shown[0]!.tree.readsOnDemand).toBe(false);
    await expectWhole(load.shown[0]!);
  });
});

describe("a library file (its light index)", () => {
  it("asks for the light index by absolute URL, and reads the content from the file by byte range", async () => {
    const path = "--home-dev-load--/2026-03-01T12-00-00-000Z_a.jsonl";
    const { replies } = lightIndexReplies(bytes);
    const { ranges } = serveRanges({ file: bytes });
    const load = startLoad(libraryTarget(path, { entryId: "aa000002", tab: "context" }));
    expect(load.worker.posted.map((p) => p.request)).toEqual([
      {
        kind: "url",
        url: `http://viewer.test/api/sessions/raw?path=${encodeURIComponent(path)}`,
        light: `http://viewer.test/api/sessions/light?path=${encodeURIComponent(path)}`,
      },
    ]);
    load.worker.send(...replies);
    await until(() => load.shown.length > 0);
    const end = endOf(replies);
    expect(load.told[0]).toBe("start server 2026-03-01T12-00-00-000Z_a.jsonl 0");
    expect(load.told[1]).toBe("tab context");
    expect(load.told.at(-2)).toBe(`progress ${end.done}/${end.total}`);
    expect(load.told.at(-1)).toBe("ready aa000002");
    // the worker kept its own copy of the lines: nothing is handed back
    expect(load.worker.requests("read")).toEqual([]);
    expect(load.loaded).toEqual([{ session: load.shown[0], complete: bytes.length }]);
    load.worker.send(schemaReply(replies));
    await until(() => load.worker.terminated);
    await expectWhole(load.shown[0]!);
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.every((r) => r.startsWith("/api/sessions/raw "))).toBe(true);
  });
});

describe("a library file opened again (the server's kept index and its snapshot)", () => {
  const path = "--home-dev-load--/2026-03-01T12-00-00-000Z_b.jsonl";

  it("is shown as soon as its snapshot is restored, before its lines come, and handed to the live tail at their end", async () => {
    const { replies, frames } = lightIndexReplies(bytes, { snapshot: "kept" });
    const { ranges } = serveRanges({ file: bytes, frames });
    const load = startLoad(libraryTarget(path));
    const [rangesReply, snapshot, ...lines] = replies;
    load.worker.send(rangesReply!, snapshot!);
    await until(() => load.shown.length > 0);
    expect(load.told).toEqual(["start server 2026-03-01T12-00-00-000Z_b.jsonl 0", "ready null"]);
    // what its first view reads was read ahead from the kept index, by range
    expect(ranges.some((r) => r.startsWith("/api/sessions/light#index "))).toBe(true);
    // only now does the worker read the rest of the lines
    expect(load.worker.requests("resume")).toHaveLength(1);
    expect(load.loaded).toEqual([]);
    load.worker.send(...lines);
    await until(() => load.loaded.length > 0);
    expect(load.loaded).toEqual([{ session: load.shown[0], complete: bytes.length }]);
    expect(load.worker.terminated).toBe(true);
    // the end's progress, and nothing else: the session was shown with the check the server made
    expect(load.told.slice(2)).toEqual([`progress ${bytes.length}/${bytes.length}`]);
    expect(load.worker.requests("check")).toEqual([]);
    await expectWhole(load.shown[0]!);
    expect(measured().filter((m) => m === "session:restored")).toHaveLength(1);
    expect(measured()).toContain("session:lines");
  });

  it("without the kept index's id, is restored as the lines come and shown at their end, with the server's check", async () => {
    const { replies } = lightIndexReplies(bytes, { snapshot: "kept", index: null });
    serveRanges({ file: bytes });
    const load = startLoad(libraryTarget(path));
    load.worker.send(...replies.slice(0, 2));
    // nothing to show early: the worker is let go on at once
    expect(load.worker.requests("resume")).toHaveLength(1);
    load.worker.send(...replies.slice(2));
    await until(() => load.shown.length > 0);
    expect(load.shown[0]!.schemaPending).toBe(false);
    expect(load.worker.terminated).toBe(true);
    expect(load.loaded).toEqual([{ session: load.shown[0], complete: bytes.length }]);
    expect(load.worker.requests("check")).toEqual([]);
    await expectWhole(load.shown[0]!);
    expect(measured()).toContain("session:restored");
  });

  it("whose snapshot does not restore, is read from its lines and checked by the worker, as a first open is", async () => {
    const { replies } = lightIndexReplies(bytes, { snapshot: "damaged" });
    serveRanges({ file: bytes });
    const load = startLoad(libraryTarget(path));
    load.worker.send(...replies);
    await until(() => load.shown.length > 0);
    expect(load.worker.requests("resume")).toHaveLength(1);
    // the worker kept none of the lines (a snapshot came): it is given the page's light text to check
    const [check] = load.worker.requests("check");
    const light = (chunks: Uint8Array[]) => chunks.map((c) => new TextDecoder().decode(c)).join("");
    expect(light(check!.lights)).toBe(light(linesOf(replies).map((r) => r.light)));
    expect(load.shown[0]!.schemaPending).toBe(true);
    load.worker.send(schemaReply(replies));
    await until(() => load.worker.terminated);
    expect(load.told.at(-1)).toBe("diagnostics");
    await expectWhole(load.shown[0]!);
    expect(measured()).not.toContain("session:restored");
  });
});

describe("a URL (?src=)", () => {
  it("whose server serves byte ranges: content read from it again by range", async () => {
    const { ranges } = serveRanges({ file: bytes });
    const load = startLoad(urlTarget("/samples/a.jsonl"));
    expect(load.worker.posted[0]!.request).toEqual({ kind: "url", url: "http://viewer.test/samples/a.jsonl" });
    const replies = streamReplies(bytes, 1000);
    load.worker.send({ type: "ranges", ranged: true }, ...replies, schemaReply(replies));
    await until(() => load.worker.terminated);
    expect(load.told[0]).toBe("start url a.jsonl 0");
    await expectWhole(load.shown[0]!);
    expect(ranges.every((r) => r.startsWith("/samples/a.jsonl "))).toBe(true);
  });

  it("whose server does not: the changed lines' bytes are kept", async () => {
    const { ranges } = serveRanges({ file: bytes });
    const load = startLoad(urlTarget("https://elsewhere.test/a.jsonl"));
    const replies = streamReplies(bytes, 1000);
    load.worker.send({ type: "ranges", ranged: false }, ...replies, schemaReply(replies));
    await until(() => load.worker.terminated);
    expect(load.shown[0]!.tree.readsOnDemand).toBe(false);
    await expectWhole(load.shown[0]!);
    expect(ranges).toEqual([]);
  });

  it("that serves a share file: opened as one, what its sender had selected applying unless the link says otherwise", async () => {
    const load = startLoad({ ...urlTarget("/shared.html"), entryId: "aa000001" });
    const replies = streamReplies(bytes, 1000);
    load.worker.send({ type: "manifest", manifest: manifestOf("theirs.jsonl", bytes.length, { entryId: "aa000003", tab: "stats" }) });
    load.worker.send(...replies, schemaReply(replies));
    await until(() => load.worker.terminated);
    expect(load.told.slice(0, 3)).toEqual(["start url shared.html 0", "tab stats", "share theirs.jsonl"]);
    expect(load.told).toContain("ready aa000001");
    expect(load.shown[0]!.tree.readsOnDemand).toBe(false);
    await expectWhole(load.shown[0]!);
  });
});

describe("a share file (the page's own data)", () => {
  it("is opened by the worker, its manifest first, its content kept", async () => {
    const target = { ...shareTarget("sealed"), request: { kind: "share" as const, text: "sealed", secret: { key: "k" } } };
    const load = startLoad(target);
    expect(load.worker.posted[0]!.request).toEqual(target.request);
    const replies = streamReplies(bytes, 1000);
    load.worker.send({ type: "manifest", manifest: manifestOf("theirs.jsonl", bytes.length, { entryId: "aa000003", tab: null }) });
    load.worker.send(...replies, schemaReply(replies));
    await until(() => load.worker.terminated);
    expect(load.told.slice(0, 2)).toEqual(["start share shared session 0", "share theirs.jsonl"]);
    expect(load.told).toContain("ready aa000003");
    expect(load.told.at(-1)).toBe("diagnostics");
    expect(load.shown[0]!.tree.readsOnDemand).toBe(false);
    await expectWhole(load.shown[0]!);
  });

  it("sealed, without its secret: the page is asked for it, and the store hears no failure", async () => {
    const load = startLoad(shareTarget());
    const locked = { kind: "locked", lock: "password", wrong: false, message: "This shared session is protected by a password." } as const;
    load.worker.send({ type: "error", error: locked });
    expect(load.locked).toEqual([locked]);
    expect(load.told).toEqual(["start share shared session 0"]);
    expect(load.worker.terminated).toBe(true);
  });
});

describe("what every source shares", () => {
  it("a session without entries waits for its notes (they are all there is to show), and is shown with them", async () => {
    const header = `${text.split("\n")[0]}\n{"type":"message","id":"bad\n`;
    const file = new File([header], "odd.jsonl");
    const load = startLoad(uploadTarget(file));
    const replies = streamReplies(bytesOf(header), 4096);
    load.worker.send(...replies);
    await settle();
    expect(load.shown).toEqual([]);
    expect(load.loaded).toEqual([]);
    load.worker.send(schemaReply(replies));
    await until(() => load.shown.length > 0);
    expect(load.shown[0]!.schemaPending).toBe(false);
    expect(load.loaded).toEqual([{ session: load.shown[0], complete: header.length }]);
    expect(load.shown[0]!.diagnostics()).toEqual(Session.fromText(header).diagnostics());
  });

  it("a file too large is refused before any worker is asked", () => {
    const load = startLoad({ ...uploadTarget(new File([bytes], "big.jsonl")), refusal: "This file is too large." });
    expect(load.told).toEqual([`start upload big.jsonl ${bytes.length}`, "fail This file is too large."]);
    expect(load.worker.posted).toEqual([]);
  });
});

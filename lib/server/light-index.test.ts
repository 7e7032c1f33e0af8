// The light index route: made while a library file is sent the first time, kept by the file's path, size, mtime and
// inode, made again once the file changed; refused (409) for files the page reads whole; the same path checks as raw.
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/sessions/light/route";
import { pruneKept } from "./prune-kept";
import { Session } from "../session";
import { LightFrameReader } from "../session/read/light-frames";
import { LightSessionReader } from "../session/read/light-session";
import { RangedLines } from "../session/read/ranged-lines";
import { generateSession } from "../../bench/generate";
import { sameAnswers } from "../session/testing/light-answers";
import { readLightResponse } from "./testing/light-response";

let root: string;
let dir: string;
const saved = { dir: process.env.PI_SESSIONS_DIR, cache: process.env.PI_VIEWER_CACHE_DIR };
const TEXT = generateSession({ entries: 400, seed: 9 });

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "light-route-"));
  dir = path.join(root, "sessions");
  mkdirSync(path.join(dir, "--w--"), { recursive: true });
  writeFileSync(path.join(dir, "--w--", "s.jsonl"), TEXT);
  writeFileSync(path.join(dir, "--w--", "v1.jsonl"), '{"type":"session","id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}\n');
  writeFileSync(path.join(root, "secret.jsonl"), TEXT);
  symlinkSync(path.join(root, "secret.jsonl"), path.join(dir, "out.jsonl"));
  process.env.PI_SESSIONS_DIR = dir;
  process.env.PI_VIEWER_CACHE_DIR = path.join(root, "cache");
});

afterAll(() => {
  process.env.PI_SESSIONS_DIR = saved.dir;
  process.env.PI_VIEWER_CACHE_DIR = saved.cache;
  rmSync(root, { recursive: true, force: true });
});

/** How the route answers for `rel` (x-light-index): its body is not read, but let go (a temp file counts in the budget). */
async function how(rel: string): Promise<string | null> {
  const response = await get(rel);
  await response.body?.cancel();
  return response.headers.get("x-light-index");
}

/** The id of the index the route sends for `rel` (its body is not read). */
async function indexId(rel: string): Promise<string | null> {
  const response = await get(rel);
  await response.body?.cancel();
  return response.headers.get("x-light-index-id");
}

const get = (rel: string) => GET(new NextRequest(`http://127.0.0.1/api/sessions/light?path=${encodeURIComponent(rel)}`));
const frames = (rel: string, index: string, range: string | null) =>
  GET(new NextRequest(`http://127.0.0.1/api/sessions/light?path=${encodeURIComponent(rel)}&index=${index}`, { headers: range === null ? {} : { range } }));

const read = readLightResponse;

describe("GET /api/sessions/light", () => {
  it("makes the index while it sends it, then sends the kept one, the same bytes", async () => {
    const first = await get("--w--/s.jsonl");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-light-index")).toBe("made");
    expect(first.headers.get("x-file-size")).toBe(String(Buffer.byteLength(TEXT)));
    const made = await read(first, TEXT);
    const whole = Session.fromText(TEXT);
    expect(made.session.leafId).toBe(whole.leafId);
    expect(made.session.tree.entries.map((e) => e.id)).toEqual(whole.tree.entries.map((e) => e.id));
    expect(made.bytes.length).toBeLessThan(Buffer.byteLength(TEXT));
    expect(made.restored).toBe(false);
    // the snapshot of the index, made once the index was kept, goes first; the frames after it are the same
    const second = await get("--w--/s.jsonl");
    expect(second.headers.get("x-light-index")).toBe("kept");
    expect(second.headers.get("x-index-snapshot")).toBe("sent");
    const kept = await read(second, TEXT);
    expect(kept.restored).toBe(true);
    expect(kept.bytes).toEqual(made.bytes);
    // its content read from the file by range, as the page reads it
    await sameAnswers(whole, kept.session, "restored from the server's snapshot", true);
  });

  it("serves the frames of the kept index it sent by range, for a session shown from its snapshot before they came", async () => {
    const response = await get("--w--/s.jsonl");
    const id = response.headers.get("x-light-index-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const sent = new Uint8Array(await response.arrayBuffer());
    const [first] = new LightFrameReader().push(sent.subarray(0, 5 + new DataView(sent.buffer).getUint32(1, true)));
    if (first?.type !== "snapshot") throw new Error("no snapshot first");
    const kept = sent.subarray(5 + first.snapshot.byteLength);
    // the frames, up to where the end frame starts, by range of the index that was sent
    const all = await frames("--w--/s.jsonl", id, "bytes=0-");
    expect(all.status).toBe(206);
    const endAt = Number(all.headers.get("content-range")!.split("/")[1]);
    const bytes = new Uint8Array(await all.arrayBuffer());
    expect(bytes).toEqual(kept.subarray(0, endAt));
    const some = await frames("--w--/s.jsonl", id, "bytes=100-199");
    expect(some.headers.get("content-range")).toBe(`bytes 100-199/${endAt}`);
    expect(new Uint8Array(await some.arrayBuffer())).toEqual(kept.subarray(100, 200));
    // the session shown at once, every entry read from its frame, its content from the file
    const file = new TextEncoder().encode(TEXT);
    const reader = new LightSessionReader(new RangedLines(async (start, end) => file.slice(start, end)));
    reader.keepLightText();
    const restored = reader.restoreNow(first.snapshot, (start, end) => bytes.slice(start, end))!;
    expect(restored).not.toBeNull();
    await sameAnswers(Session.fromText(TEXT), new Session(restored, { schemaChecked: restored.schemaCheckedAsRead! }), "shown from the snapshot", true);
    // another index, past its frames, no range, a path outside the directory
    expect((await frames("--w--/s.jsonl", "0", "bytes=0-9")).status).toBe(412);
    expect((await frames("--w--/s.jsonl", id, `bytes=${endAt}-`)).status).toBe(416);
    expect((await frames("--w--/s.jsonl", id, null)).status).toBe(416);
    expect((await frames("out.jsonl", id, "bytes=0-9")).status).toBe(403);
    expect((await frames("../secret.jsonl", id, "bytes=0-9")).status).toBeGreaterThanOrEqual(400);
  });

  it("sends no snapshot made from another state of the file or by other code, and makes it again", async () => {
    const light = path.join(root, "cache", "light");
    const snap = path.join(
      light,
      readdirSync(light).find((f) => f.endsWith(".snap"))!,
    );
    const good = readFileSync(snap);
    for (const [what, from, to] of [
      ["the file's size", '"size":', '"size":1'],
      ["the code's layout", '"layout":"', '"layout":"0'],
    ] as const) {
      writeFileSync(snap, Buffer.from(good.toString("latin1").replace(from, to), "latin1"));
      const response = await get("--w--/s.jsonl");
      expect(response.headers.get("x-index-snapshot"), what).toBe("none");
      const { session, restored } = await read(response, TEXT);
      expect(restored).toBe(false);
      expect(session.tree.entries.map((e) => e.id)).toEqual(Session.fromText(TEXT).tree.entries.map((e) => e.id));
      // made again for the next open
      const again = await get("--w--/s.jsonl");
      expect(again.headers.get("x-index-snapshot"), what).toBe("sent");
      await again.arrayBuffer();
      expect(readFileSync(snap)).toEqual(good);
    }
  });

  it("goes on from where it ended once pi appended to the file, a half-written last line included", async () => {
    const file = path.join(dir, "--w--", "s.jsonl");
    const id = await indexId("--w--/s.jsonl");
    const added = JSON.stringify({ type: "label", id: "zz000001", parentId: null, timestamp: "2026-02-01T00:00:00.000Z", targetId: "x", label: "late" });
    // the last line half written when it is read, the rest after
    appendFileSync(file, added.slice(0, 30));
    const half = await get("--w--/s.jsonl");
    expect(half.headers.get("x-light-index")).toBe("extended");
    expect((await read(half, `${TEXT}${added.slice(0, 30)}`)).session.tree.get("zz000001")).toBeUndefined();
    appendFileSync(file, `${added.slice(30)}\n`);
    const response = await get("--w--/s.jsonl");
    expect(response.headers.get("x-light-index")).toBe("extended");
    const text = `${TEXT}${added}\n`;
    const { session, bytes } = await read(response, text);
    const whole = Session.fromText(text);
    expect(session.tree.get("zz000001")?.label).toBe("late");
    expect(session.parser.lineKinds.list()).toEqual(whole.parser.lineKinds.list());
    expect(session.tree.entries.map((e) => e.id)).toEqual(whole.tree.entries.map((e) => e.id));
    expect(session.diagnostics()).toEqual(whole.diagnostics());
    const again = await get("--w--/s.jsonl");
    expect(again.headers.get("x-light-index")).toBe("kept");
    // extended, not made anew: the frames a page was sent before are where they were
    expect(again.headers.get("x-light-index-id")).toBe(id);
    const restored = await read(again, text);
    expect(restored.restored).toBe(true);
    expect(restored.bytes).toEqual(bytes);
    expect(restored.session.diagnostics()).toEqual(whole.diagnostics());
    expect(restored.session.tree.get("zz000001")?.label).toBe("late");
  });

  it("makes it anew when the file was rewritten rather than appended to, at its start or its end", async () => {
    const file = path.join(dir, "--w--", "r.jsonl");
    writeFileSync(file, TEXT);
    expect(await how("--w--/r.jsonl")).toBe("made");
    // the same inode, longer, but not what was indexed before its end
    const changed = TEXT.replace('"cwd":', '"cwd" :');
    const id = (await indexId("--w--/r.jsonl"))!;
    writeFileSync(file, `${changed}\n`);
    const response = await get("--w--/r.jsonl");
    expect(response.headers.get("x-light-index")).toBe("made");
    // a page sent the index before reads none of the new one's frames
    expect((await frames("--w--/r.jsonl", id, "bytes=0-9")).status).toBe(412);
    expect((await read(response, `${changed}\n`)).session.tree.entries.length).toBe(Session.fromText(TEXT).tree.entries.length);
    // its first line changed in place (the same length: only the head of the file tells), and a line added
    expect(await how("--w--/r.jsonl")).toBe("kept");
    const head = `${changed}\n`.replace('"version":3', '"version":4');
    expect(head.length).toBe(changed.length + 1);
    writeFileSync(file, `${head}\n`);
    expect(await how("--w--/r.jsonl")).toBe("made");
  });

  it("keeps the index when the page stops reading while it is being kept (the page ends its worker once it has the end)", async () => {
    writeFileSync(path.join(dir, "--w--", "k.jsonl"), TEXT);
    const response = await get("--w--/k.jsonl");
    expect(response.headers.get("x-light-index")).toBe("made");
    const body = response.body!.getReader();
    const frames = new LightFrameReader();
    let ended = false;
    while (!ended) {
      const { done, value } = await body.read();
      expect(done).toBe(false);
      for (const frame of frames.push(value!)) if (frame.type === "end") ended = true;
    }
    // reading the end frame asked for the next piece, whose pull keeps the index: the page goes away meanwhile
    await body.cancel();
    const again = await get("--w--/k.jsonl");
    expect(again.headers.get("x-light-index")).toBe("kept");
    expect((await read(again, TEXT)).session.leafId).toBe(Session.fromText(TEXT).leafId);
  });

  it("refuses a file the page reads whole (409), and keeps nothing for it", async () => {
    const response = await get("--w--/v1.jsonl");
    expect(response.status).toBe(409);
    expect((await response.json()).code).toBe("not-light");
    // kept: s.jsonl, r.jsonl and k.jsonl, nothing for v1.jsonl
    expect(readdirSync(path.join(root, "cache", "light")).filter((f) => f.endsWith(".bin"))).toHaveLength(3);
  });

  it("checks paths as /api/sessions/raw does: nothing outside the sessions directory", async () => {
    expect((await get("out.jsonl")).status).toBe(403);
    expect((await get("../secret.jsonl")).status).toBeGreaterThanOrEqual(400);
    expect((await get("--w--/missing.jsonl")).status).toBe(404);
  });

  it("keeps the cache within its budget: indexes of files that are gone first, then the least recently used", async () => {
    const light = path.join(root, "cache", "light");
    const kept = () => readdirSync(light).filter((f) => f.endsWith(".bin")).length;
    for (const name of ["a", "b", "c"]) writeFileSync(path.join(dir, "--w--", `${name}.jsonl`), TEXT);
    for (const name of ["a", "b"]) await (await get(`--w--/${name}.jsonl`)).arrayBuffer();
    const before = kept();
    rmSync(path.join(dir, "--w--", "a.jsonl"));
    await (await get("--w--/b.jsonl")).arrayBuffer(); // b used again: c, made next, and b are the newest
    const one = statSync(
      path.join(
        light,
        readdirSync(light).find((f) => f.endsWith(".bin"))!,
      ),
    ).size;
    await pruneKept(path.join(root, "cache"), 10 * one); // a's index goes: its file is gone
    expect(kept()).toBe(before - 1);
    process.env.PI_VIEWER_CACHE_MB = String((2.5 * one) / (1024 * 1024));
    try {
      await (await get("--w--/c.jsonl")).arrayBuffer();
    } finally {
      delete process.env.PI_VIEWER_CACHE_MB;
    }
    // two fit: c (just made) and b (used last); s and r, used before, are dropped
    expect(kept()).toBe(2);
    expect(await how("--w--/b.jsonl")).toBe("kept");
    expect(await how("--w--/c.jsonl")).toBe("kept");
    expect(await how("--w--/s.jsonl")).not.toBe("kept");
  });

  it("sends the index when its cache folder cannot be written, and keeps nothing", async () => {
    const blocked = path.join(root, "blocked");
    writeFileSync(blocked, "a file where the cache folder would be");
    process.env.PI_VIEWER_CACHE_DIR = blocked;
    try {
      for (let i = 0; i < 2; i++) {
        const response = await get("--w--/b.jsonl");
        expect(response.status).toBe(200);
        expect(response.headers.get("x-light-index")).toBe("made");
        const { session } = await read(response, TEXT);
        expect(session.tree.entries.map((e) => e.id)).toEqual(Session.fromText(TEXT).tree.entries.map((e) => e.id));
      }
    } finally {
      process.env.PI_VIEWER_CACHE_DIR = path.join(root, "cache");
    }
  });
});

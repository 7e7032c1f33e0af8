// Attacks on the cache behind GET /api/sessions/light: a kept index or snapshot cut short, with a bit flipped, with
// a length that lies, or made from another write of the index, is dropped and the file read; what the page makes
// of the answer is what a direct read of the file gives. Two servers on one cache leave a pair that agrees.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/sessions/light/route";
import { generateSession } from "../../bench/generate";
import type { Session } from "../session";
import { sameAnswers } from "../session/testing/light-answers";
import { metaOf, readKeptIndex } from "./kept-light-index";
import { readSessionFile } from "./read-session";
import { readLightResponse } from "./testing/light-response";

let root: string;
let file: string;
let direct: Session;
const saved = { dir: process.env.PI_SESSIONS_DIR, cache: process.env.PI_VIEWER_CACHE_DIR };
const TEXT = generateSession({ entries: 120, seed: 42 });
const REL = "--w--/d.jsonl";

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "light-damage-"));
  mkdirSync(path.join(root, "sessions", "--w--"), { recursive: true });
  file = path.join(root, "sessions", "--w--", "d.jsonl");
  writeFileSync(file, TEXT);
  process.env.PI_SESSIONS_DIR = path.join(root, "sessions");
  process.env.PI_VIEWER_CACHE_DIR = path.join(root, "cache");
  direct = await readSessionFile(file);
});

afterAll(() => {
  process.env.PI_SESSIONS_DIR = saved.dir;
  process.env.PI_VIEWER_CACHE_DIR = saved.cache;
  rmSync(root, { recursive: true, force: true });
});

const get = () => GET(new NextRequest(`http://127.0.0.1/api/sessions/light?path=${encodeURIComponent(REL)}`));

/** Where the cache keeps the file's index and its snapshot (light-index.ts names them by the file's real path). */
function kept(): { bin: string; snap: string } {
  const key = createHash("sha256").update(realpathSync(file)).digest("hex").slice(0, 32);
  const at = (ext: string) => path.join(root, "cache", "light", `${key}.${ext}`);
  return { bin: at("bin"), snap: at("snap") };
}

const flip = (bytes: Buffer, at: number) => {
  const out = Buffer.from(bytes);
  out[at]! ^= 0x10;
  return out;
};

const withU32 = (bytes: Buffer, at: number, value: number) => {
  const out = Buffer.from(bytes);
  out.writeUInt32LE(value, at);
  return out;
};

/** The kept index and its snapshot, both made and checked to be used. */
async function keptPair(): Promise<{ bin: Buffer; snap: Buffer }> {
  for (let i = 0; i < 3; i++) {
    const response = await get();
    if (response.headers.get("x-index-snapshot") === "sent") {
      expect((await readLightResponse(response, TEXT)).restored).toBe(true);
      return { bin: readFileSync(kept().bin), snap: readFileSync(kept().snap) };
    }
    await response.arrayBuffer();
  }
  throw new Error("no snapshot was made");
}

describe("the light index's cache, damaged", () => {
  it("drops a kept index cut short, with a bit flipped or a length that lies, and sends the file's: the page reads what a direct read gives", async () => {
    const { bin: good } = await keptPair();
    const index = (await readKeptIndex(kept().bin))!;
    const meta = (await metaOf(index.handle))!;
    await index.handle.close();
    const trailerAt = good.length - 16;
    const damages: [string, Buffer][] = [
      ["cut short by a byte", good.subarray(0, good.length - 1)],
      ["cut short in its frames", good.subarray(0, meta.bytes >> 1)],
      ["its trailer gone", good.subarray(0, meta.bytes)],
      ["a bit flipped in a frame's light text", flip(good, meta.bytes >> 1)],
      ["a bit flipped in the end frame", flip(good, meta.endAt + 3)],
      ["the first frame's length flipped", flip(good, 2)],
      ["the first frame's length 2^31", withU32(good, 1, 2 ** 31)],
      ["a bit flipped in the trailer's description", flip(good, meta.bytes + 20)],
      ["the trailer's length 2^31", withU32(good, trailerAt, 2 ** 31)],
      ["the trailer's length one short", withU32(good, trailerAt, good.readUInt32LE(trailerAt) - 1)],
      ["zeros", Buffer.alloc(good.length)],
    ];
    for (const [what, damaged] of damages) {
      writeFileSync(kept().bin, damaged);
      const response = await get();
      expect(response.headers.get("x-light-index"), what).toBe("made");
      const page = await readLightResponse(response, TEXT);
      expect(page.restored, what).toBe(false);
      await sameAnswers(direct, page.session, what, true);
      // made again and kept in its place: the same frames, another write
      const again = readFileSync(kept().bin);
      expect(again.subarray(0, meta.bytes).equals(good.subarray(0, meta.bytes)), what).toBe(true);
      expect(again.equals(good), what).toBe(false);
    }
  }, 120_000);

  it("refuses a length that lies before allocating for it, in the kept index's trailer and in the snapshot's stamp", async () => {
    const { bin, snap } = await keptPair();
    const sizes: number[] = [];
    const spies = (["alloc", "allocUnsafe", "allocUnsafeSlow"] as const).map((name) => {
      const original = Buffer[name].bind(Buffer) as (...args: unknown[]) => Buffer;
      return vi.spyOn(Buffer, name).mockImplementation(((size: number, ...rest: unknown[]) => {
        sizes.push(size);
        return original(size, ...rest);
      }) as never);
    });
    try {
      // the index's trailer is refused: the index is made again (and its snapshot, looked at next)
      writeFileSync(kept().bin, withU32(bin, bin.length - 16, 2 ** 31));
      const made = await get();
      expect(made.headers.get("x-light-index")).toBe("made");
      await made.arrayBuffer();
      await keptPair();
      // the snapshot's stamp is refused: the index goes without it
      writeFileSync(kept().snap, withU32(snap, 0, 2 ** 31));
      const response = await get();
      expect([response.headers.get("x-light-index"), response.headers.get("x-index-snapshot")]).toEqual(["kept", "none"]);
      await response.arrayBuffer();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(sizes.length).toBeGreaterThan(0);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1 << 20);
  });

  it("drops a snapshot cut short, with a bit flipped or a stamp that lies, and sends the index without it", async () => {
    const { snap: good } = await keptPair();
    const stamp = good.readUInt32LE(0);
    const damages: [string, Buffer][] = [
      ["cut short by a byte", good.subarray(0, good.length - 1)],
      ["cut short in its stamp", good.subarray(0, 4 + (stamp >> 1))],
      ["a bit flipped among its arrays", flip(good, good.length - 9)],
      ["a bit flipped in its JSON", flip(good, 4 + stamp + 40)],
      ["a bit flipped in its stamp's checksum", flip(good, 4 + good.toString("latin1", 4, 4 + stamp).indexOf('"sum":"') + 8)],
      ["its stamp's length one long", withU32(good, 0, stamp + 1)],
      ["its stamp's length 2^31", withU32(good, 0, 2 ** 31)],
      ["a byte more", Buffer.concat([good, Buffer.of(0)])],
    ];
    for (const [what, damaged] of damages) {
      writeFileSync(kept().snap, damaged);
      const response = await get();
      expect([response.headers.get("x-light-index"), response.headers.get("x-index-snapshot")], what).toEqual(["kept", "none"]);
      const page = await readLightResponse(response, TEXT);
      expect(page.restored, what).toBe(false);
      await sameAnswers(direct, page.session, what, true);
      // dropped, made again for the next open, and restored then
      const next = await get();
      expect(next.headers.get("x-index-snapshot"), what).toBe("sent");
      expect((await readLightResponse(next, TEXT)).restored, what).toBe(true);
      expect(readFileSync(kept().snap).equals(good), what).toBe(true);
    }
  }, 120_000);

  it("a page given a damaged snapshot parses the lines instead, and reads what a direct read gives", async () => {
    await keptPair();
    const flipped = (at: (s: Uint8Array) => number) => (s: Uint8Array) => {
      s[at(s)]! ^= 1;
      return s;
    };
    for (const [what, damage] of [
      ["a bit flipped among the arrays", flipped((s) => s.length - 5)],
      ["a bit flipped in the JSON", flipped(() => 30)],
      ["cut short", (s: Uint8Array) => s.subarray(0, s.length - 8)],
    ] as const) {
      const page = await readLightResponse(await get(), TEXT, damage);
      expect(page.snapshot, what).not.toBeNull();
      expect(page.restored, what).toBe(false);
      await sameAnswers(direct, page.session, what, true);
    }
  }, 60_000);

  it("sends no snapshot made from another write of the index, even of the file as it is", async () => {
    const { snap: before } = await keptPair();
    // another server made the index again: the same frames, another write
    rmSync(kept().bin);
    await (await get()).arrayBuffer();
    const { snap: after } = await keptPair();
    expect(after.equals(before)).toBe(false);
    writeFileSync(kept().snap, before);
    const response = await get();
    expect([response.headers.get("x-light-index"), response.headers.get("x-index-snapshot")]).toEqual(["kept", "none"]);
    await response.arrayBuffer();
    const { snap } = await keptPair();
    const stamp = JSON.parse(snap.toString("utf8", 4, 4 + snap.readUInt32LE(0))) as { index: string; indexSum: string };
    const index = await readKeptIndex(kept().bin);
    await index!.handle.close();
    expect([stamp.index, stamp.indexSum]).toEqual([index!.meta.generation, index!.meta.sum]);
  }, 60_000);

  it("two servers keeping the same file's index at once leave an index and a snapshot that agree", async () => {
    rmSync(kept().bin, { force: true });
    rmSync(kept().snap, { force: true });
    const [a, b] = await Promise.all([get(), get()]);
    expect([a.headers.get("x-light-index"), b.headers.get("x-light-index")]).toEqual(["made", "made"]);
    // their bodies read a piece of each in turn, so that both write their temp files at once
    const readers = [a.body!.getReader(), b.body!.getReader()];
    const done = [false, false];
    while (!done[0] || !done[1]) for (const [i, reader] of readers.entries()) if (!done[i]) done[i] = (await reader.read()).done;
    const { snap } = await keptPair();
    const index = (await readKeptIndex(kept().bin))!;
    await index.handle.close();
    expect(JSON.parse(snap.toString("utf8", 4, 4 + snap.readUInt32LE(0))).index).toBe(index.meta.generation);
    await sameAnswers(direct, (await readLightResponse(await get(), TEXT)).session, "after two writers", true);
  }, 60_000);
});

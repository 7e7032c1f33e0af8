// The viewer builds its index from light lines (long strings cut, light-lines.ts) and reads content from the
// kept bytes. Every answer must be the one the full text gives: checked here on the shared fixtures, the e2e
// sessions and the bench generator's output, each also "stretched" (every string made long enough to be cut,
// with escapes and multi-byte characters), read in uneven chunks.
import { describe, expect, it } from "vitest";
import { generateSession } from "../../../bench/generate";
import { ElidedLines } from "./elided-lines";
import { CUT_KEEP, CUT_OVER, LightReader, LineForm, lightLine, ByteSink, type LightChunk } from "./light-lines";
import { LightSessionReader, readLight, readLightWith } from "./light-session";
import { SchemaLineChecker } from "./schema-lines";
import { snapshotParts, type SnapshotParts } from "./object-snapshot";
import { sessionSnapshot } from "./session-snapshot";
import { Session } from "..";
import { cases, sameAnswers, stretch } from "../testing/light-answers";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** All the light text a LightReader makes of `bytes` read in `size`-byte chunks, and its ElidedLines. */
function readAll(bytes: Uint8Array, size: number): { light: string; lines: ElidedLines } {
  const reader = new LightReader(size);
  const lines = new ElidedLines();
  let light = "";
  const take = (chunk: ReturnType<LightReader["push"]>) => {
    if (!chunk) return;
    lines.add(chunk);
    light += decoder.decode(chunk.light);
  };
  for (let at = 0; at < bytes.length; at += size) take(reader.push(bytes.subarray(at, at + size)));
  take(reader.flush());
  return { light: light + reader.end(), lines };
}

describe("light lines", () => {
  it("cut a long string to a prefix ending on a whole character, and keep everything else", () => {
    const long = `${"ab".repeat(CUT_KEEP / 2 - 1)}é${"x".repeat(CUT_OVER)}`;
    const line = JSON.stringify({ type: "message", id: "a1", message: { role: "user", content: [{ type: "text", text: long }] } });
    const out = new ByteSink();
    expect(lightLine(encoder.encode(line), 0, encoder.encode(line).length, out)).toBe(LineForm.Cut);
    const light = JSON.parse(decoder.decode(out.view()));
    const text: string = light.message.content[0].text;
    expect(text.endsWith("…")).toBe(true);
    expect(long.startsWith(text.slice(0, -1))).toBe(true);
    expect(encoder.encode(text.slice(0, -1)).length).toBeLessThanOrEqual(CUT_KEEP);
    expect({ ...light, message: { ...light.message, content: [{ ...light.message.content[0], text: long }] } }).toEqual(JSON.parse(line));
  });

  it("cut what no card or rule reads (signatures, an edit's texts and diff) to a few bytes, in a line that is scanned anyway", () => {
    const signature = "s".repeat(200);
    const arg = "o".repeat(100);
    const line = JSON.stringify({
      type: "message",
      id: "a1",
      message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "t".repeat(CUT_OVER + 10), thinkingSignature: signature },
          { type: "toolCall", id: "c1", name: "edit", arguments: { path: "src/a.ts", oldText: arg, newText: "short" } },
        ],
      },
    });
    const bytes = encoder.encode(line);
    const out = new ByteSink();
    expect(lightLine(bytes, 0, bytes.length, out)).toBe(LineForm.Cut);
    const light = JSON.parse(decoder.decode(out.view()));
    const [thinking, call] = light.message.content;
    expect(thinking.thinkingSignature).toBe(`${"s".repeat(16)}…`);
    expect(call.arguments).toEqual({ path: "src/a.ts", oldText: `${"o".repeat(16)}…`, newText: "short" });
    expect(thinking.thinking).toBe(`${"t".repeat(CUT_KEEP)}…`);
    // a short ASCII line is not scanned: its values stay whole
    const small = JSON.stringify({
      type: "message",
      id: "a2",
      message: { role: "assistant", content: [{ type: "thinking", thinking: "x", thinkingSignature: signature }] },
    });
    const smallOut = new ByteSink();
    expect(lightLine(encoder.encode(small), 0, small.length, smallOut)).toBe(LineForm.Same);
  });

  it("write every other character as an escape, so a valid line becomes ASCII and parses the same", () => {
    const value = { type: "message", id: "é1", message: { role: "user", content: 'naïve → 漢字 😀 \u2028 "q" \\ tab\t', clé: ["ü", 1, null] } };
    const line = encoder.encode(JSON.stringify(value));
    const out = new ByteSink();
    expect(lightLine(line, 0, line.length, out)).toBe(LineForm.Escaped);
    expect(out.view().every((b) => b < 0x80)).toBe(true);
    expect(JSON.parse(decoder.decode(out.view()))).toEqual(value);
    const ascii = encoder.encode(JSON.stringify({ type: "message", id: "a", message: { role: "user", content: "plain" } }));
    const plain = new ByteSink();
    expect(lightLine(ascii, 0, ascii.length, plain)).toBe(LineForm.Same);
    expect(plain.view()).toEqual(ascii);
  });

  it("leave bytes that are not UTF-8 for the decoder to replace as it does in the full text", () => {
    // truncated sequences, an encoded surrogate, an overlong form, a stray continuation byte, next to valid characters
    const prefix = encoder.encode('{"type":"message","id":"a","message":{"role":"user","content":"é');
    const bad = [0xe2, 0x82, 0xc3, 0xa9, 0xed, 0xa0, 0x80, 0x41, 0xc0, 0xaf, 0xf0, 0x9f, 0x98, 0x80, 0xf0, 0x90, 0x80, 0xe2, 0x80, 0xa6, 0xbf];
    const suffix = encoder.encode('"}}');
    const line = new Uint8Array([...prefix, ...bad, ...suffix]);
    const out = new ByteSink();
    expect(lightLine(line, 0, line.length, out)).toBe(LineForm.Escaped);
    expect(JSON.parse(decoder.decode(out.view()))).toEqual(JSON.parse(decoder.decode(line)));
  });

  it("never cut the values the index reads, nor rewrite a line that is not valid JSON", () => {
    const big = "z".repeat(CUT_OVER * 2);
    for (const line of [
      JSON.stringify({ type: "label", id: big, parentId: big, targetId: big, label: big }),
      JSON.stringify({ type: "session_info", id: "a", name: big }),
    ]) {
      const bytes = encoder.encode(line);
      const out = new ByteSink();
      expect(lightLine(bytes, 0, bytes.length, out), line.slice(0, 80)).toBe(LineForm.Same);
      expect(out.view()).toEqual(bytes);
    }
    for (const line of [
      `{"type":"message","id":"a","message":{"role":"user","content":"${big}é\u0001"}}`,
      `{"type":"message","id":"a","message":{"role":"user","content":"${big}é\\x"}}`,
      `{"type":"message","id":"a","message":{"role":"user","content":"${big}é`,
      `{"type":"message","id":"é","message":{"role":"user","content":"${big}"} ü}`,
      `\ufeff{"type":"message","id":"é"}`,
    ]) {
      const bytes = encoder.encode(line);
      const out = new ByteSink();
      expect(lightLine(bytes, 0, bytes.length, out), line.slice(0, 80)).toBe(LineForm.Same);
      expect(out.view()).toEqual(bytes);
    }
  });

  it("split lines where SessionParser does, whatever the chunk size, and keep the changed lines' bytes", () => {
    const text = stretch(generateSession({ entries: 300, seed: 3 }));
    const bytes = encoder.encode(text);
    for (const size of [1, 7, 4096, 1 << 20]) {
      const { light, lines } = readAll(bytes, size);
      const fullLines = text.split("\n");
      const lightLines = light.split("\n");
      expect(lightLines.length, `chunk ${size}`).toBe(fullLines.length);
      expect(lines.cutCount, `chunk ${size}`).toBeGreaterThan(200);
      for (let i = 0; i < fullLines.length; i++) {
        const at = `chunk ${size} line ${i + 1}`;
        expect(lines.has(i + 1) ? lines.text(i + 1) : lightLines[i], at).toBe(fullLines[i]);
        if (!lines.isCut(i + 1) && i < fullLines.length - 1) expect(JSON.parse(lightLines[i]!), at).toEqual(JSON.parse(fullLines[i]!));
      }
      expect(
        [...light.slice(0, light.lastIndexOf("\n"))].every((c) => c.charCodeAt(0) < 0x80),
        `chunk ${size}: light text is ASCII`,
      ).toBe(true);
    }
  });

  it("read lines where they are: a chunk with changed lines is kept as pushed, only a line that spans chunks is copied", () => {
    const bytes = encoder.encode(stretch(generateSession({ entries: 60, seed: 5 })));
    const reader = new LightReader(1);
    const pushed = new Set<Uint8Array>();
    const raws: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += 1 << 16) {
      const part = bytes.subarray(at, at + (1 << 16));
      pushed.add(part);
      raws.push(...(reader.push(part)?.raws ?? []));
    }
    raws.push(...(reader.flush()?.raws ?? []));
    const copies = raws.filter((raw) => !pushed.has(raw));
    expect(raws.length - copies.length).toBeGreaterThan(0);
    expect(copies.length).toBeGreaterThan(0);
    // a copy is one whole line: the one that spanned chunks
    for (const copy of copies) expect(copy.indexOf(0x0a)).toBe(copy.length - 1);
  });

  it("decode light lines in pieces at line ends, a line longer than a piece and lines with other characters included", () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const entry = (i: number) =>
      JSON.stringify({
        type: "message",
        id: `m${i}`,
        parentId: i ? `m${i - 1}` : null,
        timestamp: "2026-01-01T00:00:01.000Z",
        message: { role: "user", content: `line ${i} é 漢字` },
      });
    const broken = `{"type":"message","id":"x","note":"ü ${"z".repeat(70_000)}" "message":{}}`;
    const text = [header, ...Array.from({ length: 2000 }, (_, i) => entry(i)), broken, entry(2000), ""].join("\n");
    const full = Session.fromText(text);
    const light = new Session(readLight(encoder.encode(text)));
    expect(light.tree.size).toBe(2001);
    expect(light.diagnostics()).toEqual(full.diagnostics());
    expect(light.diagnostics().some((d) => d.line === 2002)).toBe(true);
    expect(light.context("m2000").messages).toEqual(full.context("m2000").messages);
  });

  it("read a chunk over several calls, a budget of bytes at a time, into the same index as in one (the page's slices)", () => {
    let calls = 0;
    for (const { name, text } of cases()) {
      const bytes = encoder.encode(text);
      const whole = new LightSessionReader();
      const sliced = new LightSessionReader();
      const reader = new LightReader(1 << 14);
      const budget = 1 + (text.length % 3001);
      const take = (chunk: LightChunk | null) => {
        if (!chunk) return;
        whole.push(chunk);
        for (calls++; !sliced.pushSome(chunk, budget); calls++);
      };
      for (let at = 0; at < bytes.length; at += 1 << 15) take(reader.push(bytes.subarray(at, at + (1 << 15))));
      take(reader.flush());
      const last = reader.end();
      const [a, b] = [new Session(whole.end(last)), new Session(sliced.end(last))];
      expect(b.parser.lineKinds.list(), name).toEqual(a.parser.lineKinds.list());
      expect(b.diagnostics(), name).toEqual(a.diagnostics());
      expect(b.tree.entries, name).toEqual(a.tree.entries);
      expect(b.leafId, name).toBe(a.leafId);
    }
    expect(calls).toBeGreaterThan(cases().length * 2);
  });

  it("report a broken line that was escaped with the full line's error, positions and all", () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const text = `${header}\n{"type":"message","id":"é1","parentId":null "message":{"role":"user","content":"ü"}}\n{"type":"message","id":"b","parentId":null,"message":{"role":"user","content":"漢字"}}\n`;
    const full = Session.fromText(text);
    const light = new Session(readLight(encoder.encode(text)));
    expect(full.diagnostics()[0]!.message).toMatch(/position \d+/);
    expect(light.diagnostics()).toEqual(full.diagnostics());
  });

  it("say what reading an entry in full costs: its line's bytes until it is read, nothing after", () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const big = JSON.stringify({ type: "message", id: "b", parentId: null, message: { role: "user", content: "é".repeat(40_000) } });
    const small = JSON.stringify({ type: "message", id: "c", parentId: "b", message: { role: "user", content: "hi" } });
    const light = new Session(readLight(encoder.encode(`${header}\n${big}\n${small}\n`)));
    const entry = light.tree.get("b")!;
    expect(light.tree.fullCost(entry)).toBe(encoder.encode(big).length);
    expect(light.tree.fullCost(light.tree.get("c")!)).toBe(0); // not cut: its light line is the line
    expect((light.tree.full(entry).message as { content: string }).content).toHaveLength(40_000);
    expect(light.tree.fullCost(entry)).toBe(0);
  });

  it("give the worker's schema check the same issues as the full text", () => {
    for (const { name, text } of cases()) {
      const bytes = encoder.encode(text);
      const { light } = readAll(bytes, 4096);
      const checker = new SchemaLineChecker();
      checker.push(light.slice(0, light.lastIndexOf("\n") + 1));
      const full = new SchemaLineChecker();
      full.push(text.slice(0, text.lastIndexOf("\n") + 1));
      expect(checker.result(), name).toEqual(full.result());
    }
  });
});

describe("a session read from light lines answers as the full text does", () => {
  it.each(cases())(
    "$name",
    async ({ name, text }) => {
      const full = Session.fromText(text);
      const bytes = encoder.encode(text);
      const chunk = 1 + (text.length % 9973);
      const light = new Session(readLight(bytes, chunk, 1 << 14));
      if (CUT_OVER < text.length && name.endsWith("stretched"))
        expect(light.tree.hasCutEntries || light.parser.sourceVersion !== 3 || light.parser.isV4Log, name).toBe(true);
      await sameAnswers(full, light, name);
    },
    300_000,
  );
});

describe("a session whose index made room for the entries it expected answers as the full text does", () => {
  it.each(cases().filter((c) => !c.name.startsWith("generated")))(
    "$name, told the file is bigger or smaller than it is",
    async ({ name, text }) => {
      const bytes = encoder.encode(text);
      const chunkBytes = 1 + (text.length % 7001);
      // a total ten times the file's makes room for ten times its entries; one byte more, for about as many
      for (const total of [bytes.length * 10, bytes.length + 1]) {
        const session = new LightSessionReader();
        const reader = new LightReader(chunkBytes);
        let sized = false;
        let early = false;
        let pushed = 0;
        for (let at = 0; at < bytes.length; at += chunkBytes) {
          const chunk = reader.push(bytes.subarray(at, at + chunkBytes));
          pushed = Math.min(bytes.length, at + chunkBytes);
          if (chunk) session.push(chunk);
          if (!sized) {
            sized = session.expectFrom(pushed, total);
            if (sized && pushed < bytes.length) early = true;
          }
        }
        const rest = reader.flush();
        if (rest) session.push(rest);
        const full = Session.fromText(text);
        // (a file of thousands of entries made its room before its end: the room is what is tested)
        if (full.tree.entryCount >= 4096) expect(early, name).toBe(true);
        await sameAnswers(full, new Session(session.end(reader.end())), `${name}, total ${total}`);
      }
    },
    300_000,
  );
});

describe("a session whose entries are read again from the kept light text answers as the full text does", () => {
  it.each(cases())(
    "$name, 8 entry objects kept",
    async ({ name, text }) => {
      const full = Session.fromText(text);
      const bytes = encoder.encode(text);
      const parser = readLight(bytes, 1 + (text.length % 7919), 1 << 13, undefined, 8);
      const light = new Session(parser);
      // a file that reads as light keeps no entry objects but the last few (one whose lines were all left as
      // written too); the others were indexed again from their full text
      expect(parser.readsAsLight && parser.tree.entrySource === null, name).toBe(false);
      await sameAnswers(full, light, name);
    },
    300_000,
  );

  it.each(cases().filter((c) => !c.name.startsWith("generated")))(
    "$name, read in two parts as a live tail does (the rest given as text after the first read ended)",
    async ({ name, text }) => {
      const cut = text.indexOf("\n", Math.floor(text.length / 2)) + 1;
      if (cut === 0) return;
      const first = readLight(encoder.encode(text.slice(0, cut)), 1 << 12, 1 << 12, undefined, 8);
      if (!first.readsAsLight || !first.reopen()) return;
      first.tree.entrySource!.appendText!(text.slice(cut));
      first.push(text.slice(cut));
      first.end();
      await sameAnswers(Session.fromText(text), new Session(first), name);
    },
    300_000,
  );
});

/** readLight with the index restored from `snapshot`, and whether it was (not read from the lines after all). */
function readRestored(
  bytes: Uint8Array,
  chunkBytes: number,
  snapshot: Uint8Array | SnapshotParts,
): { parser: ReturnType<typeof readLight>; restored: boolean } {
  const session = new LightSessionReader();
  session.keepLightText(8);
  session.restoreFrom(snapshot);
  const parser = readLightWith(session, bytes, chunkBytes);
  return { parser, restored: session.restoredIndex };
}

describe("a session restored from the snapshot of its index answers as the full text does", () => {
  it.each(cases())(
    "$name",
    async ({ name, text }) => {
      const bytes = encoder.encode(text);
      const chunk = 1 + (text.length % 6007);
      const built = readLight(bytes, chunk, 1 << 13, undefined, 8);
      if (!built.readsAsLight) {
        // v1/v2 files and v4 logs: the server sends them whole, never as light lines with a snapshot
        expect(() => sessionSnapshot(built), name).toThrow(/read line by line as written/);
        return;
      }
      const snapshot = sessionSnapshot(built);
      // the lines come again in other chunks: a restored index does not depend on how its text arrives
      const { parser, restored } = readRestored(bytes, 1 + (text.length % 4001), snapshot);
      expect(restored, name).toBe(true);
      await sameAnswers(Session.fromText(text), new Session(parser), name);
      // pi's schemas checked while the index was built (as the server does) come back with it
      const checking = new LightSessionReader();
      checking.keepLightText(8);
      checking.checkSchemaAsRead();
      // (given as the worker gives it: its JSON parsed, and through a structured clone)
      const parts = structuredClone(snapshotParts(sessionSnapshot(readLightWith(checking, bytes, chunk, 1 << 13))));
      const checked = readRestored(bytes, 1 + (text.length % 3001), parts).parser;
      await sameAnswers(Session.fromText(text), new Session(checked, { schemaChecked: checked.schemaCheckedAsRead! }), `${name}, checked as built`);
    },
    300_000,
  );

  it.each(cases().filter((c) => !c.name.startsWith("generated")))(
    "$name, its index of ids made again in steps (as the page makes it, a step per task), or at once when asked midway",
    async ({ name, text }) => {
      const bytes = encoder.encode(text);
      const built = readLight(bytes, 1 << 12, 1 << 12, undefined, 8);
      if (!built.readsAsLight) return;
      const snapshot = sessionSnapshot(built);
      const stepped = readRestored(bytes, 1 << 11, snapshot).parser;
      const entries = stepped.tree.entryLines.length;
      const making = stepped.tree.idIndexSteps(7);
      let steps = 0;
      while (!making.next().done) steps++;
      // nothing read the index before its steps: restoring it made none of it
      expect(steps, name).toBe(Math.max(0, Math.ceil(entries / 7) - 1));
      await sameAnswers(Session.fromText(text), new Session(stepped), `${name}, stepped`);
      const midway = readRestored(bytes, 1 << 11, snapshot).parser;
      midway.tree.idIndexSteps(7).next();
      await sameAnswers(Session.fromText(text), new Session(midway), `${name}, asked midway`);
      // restored as the snapshot comes, its ids made before any line has (as the page does while they stream)
      const early = new LightSessionReader();
      early.keepLightText(8);
      early.restoreFrom(snapshot);
      const tree = early.restoredTree!;
      expect(tree.size, name).toBe(stepped.tree.size);
      for (const making = tree.idIndexSteps(7); !making.next().done;);
      const parser = readLightWith(early, bytes, 1 << 11);
      expect(parser.tree, name).toBe(tree);
      await sameAnswers(Session.fromText(text), new Session(parser), `${name}, ids made before the lines came`);
    },
    300_000,
  );

  it.each(cases().filter((c) => !c.name.startsWith("e2e") && !c.name.startsWith("generated")))(
    "$name, from a snapshot that cannot be restored: the kept lines are read instead",
    async ({ name, text }) => {
      const bytes = encoder.encode(text);
      const built = readLight(bytes, 1 << 12, 1 << 12, undefined, 8);
      if (!built.readsAsLight) return;
      const snapshot = sessionSnapshot(built);
      const damaged = [snapshot.slice(0, snapshot.length >> 1), snapshot.slice().fill(7, 12, 40)];
      for (const bad of damaged) {
        const { parser, restored } = readRestored(bytes, 1 << 11, bad);
        expect(restored, name).toBe(false);
        await sameAnswers(Session.fromText(text), new Session(parser), name);
      }
    },
    300_000,
  );

  it.each(cases().filter((c) => !c.name.startsWith("generated")))(
    "$name, restored and then grown as a live tail grows it",
    async ({ name, text }) => {
      const cut = text.indexOf("\n", Math.floor(text.length / 2)) + 1;
      if (cut === 0) return;
      const head = encoder.encode(text.slice(0, cut));
      const built = readLight(head, 1 << 12, 1 << 12, undefined, 8);
      if (!built.readsAsLight) return;
      const { parser: restored, restored: wasRestored } = readRestored(head, 1 << 11, sessionSnapshot(built));
      expect(wasRestored, name).toBe(true);
      if (!restored.reopen()) return;
      restored.tree.entrySource!.appendText!(text.slice(cut));
      restored.push(text.slice(cut));
      restored.end();
      await sameAnswers(Session.fromText(text), new Session(restored), name);
    },
    300_000,
  );
});

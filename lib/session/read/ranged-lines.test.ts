// A session whose content is read from its file on demand, by byte range (RangedLines: a page's upload or library
// file), answers every question as the whole text read into memory does, once the content an answer asks for is
// read (Session.withContent); before that, nothing passes light content off as full.
import { describe, expect, it } from "vitest";
import { generateSession } from "../../../bench/generate";
import { ContentNotReadError, prepareSearch, searchSession, Session } from "..";
import { cases, sameAnswers, stretch } from "../testing/light-answers";
import { readLight } from "./light-session";
import { RangedLines, type ByteSource } from "./ranged-lines";

const encoder = new TextEncoder();

/** A byte source over `bytes` that counts its reads (each a copy, as a Blob's slice or a response body is). */
function sourceOf(bytes: Uint8Array): { source: ByteSource; reads: [number, number][] } {
  const reads: [number, number][] = [];
  const source: ByteSource = async (start, end) => {
    reads.push([start, end]);
    await Promise.resolve();
    return bytes.slice(start, end);
  };
  return { source, reads };
}

function onDemand(text: string, budget = 1 << 12, chunk = 1 << 14): { session: Session; reads: [number, number][]; bytes: Uint8Array } {
  const bytes = encoder.encode(text);
  const { source, reads } = sourceOf(bytes);
  const session = new Session(readLight(bytes, chunk, chunk, new RangedLines(source, { name: "x.jsonl", budget })));
  return { session, reads, bytes };
}

const header = { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" };
const long = (c: string) => c.repeat(3000);
function message(id: string, parentId: string | null, text: string) {
  return { type: "message", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: text, timestamp: 1 } };
}
const jsonl = (lines: object[]) => lines.map((l) => `${JSON.stringify(l)}\n`).join("");

describe("content read on demand answers as the whole text does", () => {
  it.each(cases())(
    "$name",
    async ({ name, text }) => {
      const full = Session.fromText(text);
      // a small budget: answers must hold while texts are dropped and read again
      await sameAnswers(full, onDemand(text, 1 << 12, 1 + (text.length % 9973)).session, name, true);
    },
    300_000,
  );

  it("searches a session bigger than one batch of content, the hits growing batch by batch", async () => {
    const text = stretch(generateSession({ entries: 5000, seed: 3 }));
    const full = Session.fromText(text);
    const { session } = onDemand(text, 1 << 16);
    expect(session.tree.readsOnDemand).toBe(true);
    // building the index ahead stops where content must be read first, and says there is nothing more to do now
    expect(prepareSearch(session, 1000)).toBe(true);
    const first = searchSession(session, "the"); // nothing read yet: no entry with cut content is searched
    expect(first.complete).toBe(false);
    expect(first.searched).toBeLessThan(session.tree.entries.length);
    const answer = await session.withContent(() => searchSession(session, "the"));
    expect(answer).toEqual(searchSession(full, "the"));
    expect(answer.complete).toBe(true);
  });
});

describe("RangedLines", () => {
  const text = jsonl([header, message("a", null, long("a")), message("b", "a", "short"), message("c", "b", long("c")), message("d", "c", long("d"))]);

  it("refuses content it has not read, says which lines a question needs, and answers once they are read", async () => {
    const { session, reads } = onDemand(text);
    const tree = session.tree;
    expect(tree.readsOnDemand).toBe(true);
    expect(() => tree.full(tree.get("c")!)).toThrow(ContentNotReadError);
    expect(() => session.context("d")).toThrow(/line 2's content has not been read from the file yet/);
    const { value, lines } = tree.readLightly(() => session.context("d"));
    expect(lines).toEqual([2, 4, 5]);
    expect(JSON.stringify(value.messages[0])).toMatch(/a…"/); // light: cut, never passed off as full
    await tree.readContent(lines);
    expect(reads).toHaveLength(1); // three lines close together: one read
    expect(session.context("d")).toEqual(Session.fromText(text).context("d"));
    expect(tree.readLightly(() => session.context("d")).lines).toEqual([]);
  });

  it("reads lines far apart in separate ranges, and a line asked for twice at once only once", async () => {
    const far = jsonl([
      header,
      message("a", null, long("a")),
      ...Array.from({ length: 200 }, (_, i) => message(`m${i}`, i ? `m${i - 1}` : "a", long("m"))),
      message("z", "m199", long("z")),
    ]);
    const { session, reads, bytes } = onDemand(far, 1 << 30);
    const lines = session.tree.readLightly(() => [session.tree.full(session.tree.get("a")!), session.tree.full(session.tree.get("z")!)]).lines;
    expect(lines).toEqual([2, 203]);
    await Promise.all([session.tree.readContent(lines), session.tree.readContent([2])]);
    expect(reads).toHaveLength(2);
    expect(reads[1]![1]).toBe(bytes.length - 1); // the last line, its newline not read
  });

  it("drops texts over its budget, but not those a recent load asked for", async () => {
    const { session } = onDemand(text, 10);
    const tree = session.tree;
    await tree.readContent([2]);
    await tree.readContent([4]);
    expect(tree.waitsFor(tree.get("a")!)).toBe(false);
    expect(tree.waitsFor(tree.get("c")!)).toBe(false);
    for (let i = 0; i < 4; i++) await tree.readContent([5]);
    expect(tree.waitsFor(tree.get("a")!)).toBe(true); // four loads later, over budget: read again when asked
    expect(tree.waitsFor(tree.get("d")!)).toBe(false);
  });

  it("says the file was cut or replaced rather than show another entry's content", async () => {
    const bytes = encoder.encode(text);
    const short = new Session(readLight(bytes, 1 << 14, 1 << 14, new RangedLines(async (s, e) => bytes.slice(s, e - 1), { name: "x.jsonl" })));
    await expect(short.tree.readContent([2])).rejects.toThrow(/x\.jsonl is not what was read: bytes \d+–\d+ came back as \d+ bytes/);
    const swapped = encoder.encode(text.replace('"id":"c"', '"id":"q"'));
    const replaced = new Session(readLight(bytes, 1 << 14, 1 << 14, new RangedLines(async (s, e) => swapped.slice(s, e), { name: "y.jsonl" })));
    await expect(replaced.tree.readContent([4])).rejects.toThrow(
      /^y\.jsonl: line 4 no longer holds entry c: the file changed since it was opened; open it again$/,
    );
    expect(() => replaced.tree.full(replaced.tree.get("c")!)).toThrow(ContentNotReadError); // not kept
    await replaced.tree.readContent([5]); // the lines that did not change still read
    expect(replaced.tree.full(replaced.tree.get("d")!)).toEqual(Session.fromText(text).tree.get("d"));
  });

  it("gives a broken cut line the error message of its full text", () => {
    const broken = `${jsonl([header, message("a", null, "x")])}${JSON.stringify(message("b", "a", long("b")))} tail\n`;
    const full = Session.fromText(broken);
    const bytes = encoder.encode(broken);
    const lines = new RangedLines(async () => new Uint8Array());
    const session = new Session(readLight(bytes, 1 << 14, 1 << 14, lines));
    expect(lines.has(3)).toBe(true); // its light text differs: the message must come from the full text
    expect(session.diagnostics()).toEqual(full.diagnostics());
    expect(session.diagnostics().find((d) => d.line === 3)?.message).toMatch(/position|column|Unexpected/);
  });
});

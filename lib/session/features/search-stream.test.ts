// A search streamed through the file's bytes (StreamSearch, what a page runs in a worker for a session whose content
// it does not hold) answers what searchSession answers on the same file, for every query: the same hits in the same
// order, the same totals and entries, whatever the chunks the bytes arrive in.
import { describe, expect, it } from "vitest";
import { Session } from "..";
import { cases } from "../testing/light-answers";
import { Rng } from "../testing/rng";
import { searchSession, SEARCH_LIMIT } from "./search";
import { StreamSearch } from "./search-stream";

/** Queries from the file's own words: single words, two words, a phrase, cased oddly, with punctuation, and some that miss. */
function queriesOf(text: string, seed: number): string[] {
  const rng = new Rng(seed);
  const words = text.match(/[\p{L}\p{N}_./:,{}-]{3,24}/gu) ?? [];
  const pick = () => words[rng.int(words.length)] ?? "x";
  const out = ["the", "error", "é ü", "漢字", 'hi"', "zzzz-not-there", '"', ":", "{", "src/", "1000"];
  for (let i = 0; i < 14; i++) {
    const w = pick();
    out.push(w, w.toUpperCase(), `${pick()} ${pick()}`, `"${w} ${pick()}"`, w.slice(1, -1));
  }
  return out;
}

function streamed(session: Session, text: string, query: string, seed: number, limit = SEARCH_LIMIT) {
  const labels = new Map([...session.labels()].map(([id, state]) => [id, state.label]));
  const search = new StreamSearch(query, session.tree.entryLines, labels, limit);
  const rng = new Rng(seed);
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length;) {
    const size = 1 + rng.int(4096);
    search.push(bytes.subarray(at, at + size));
    at += size;
  }
  return search.end();
}

describe("a search streamed through the text finds what searchSession finds", () => {
  const readAsWritten = cases().filter(({ text }) => {
    const session = Session.fromText(text);
    return session.parser.sourceVersion === 3 && !session.parser.isV4Log;
  });
  it.each(readAsWritten.map((c, i) => ({ ...c, i })))(
    "$name",
    ({ name, text, i }) => {
      const session = Session.fromText(text);
      for (const [n, query] of queriesOf(text, i).entries()) {
        const limit = n % 5 === 0 ? 3 : SEARCH_LIMIT;
        expect(streamed(session, text, query, i * 100 + n, limit), `${name}: ${query}`).toEqual(searchSession(session, query, limit));
      }
    },
    120_000,
  );

  it("finds an entry through the label it carries, though its line holds only the other words", () => {
    const lines = [
      { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" },
      {
        type: "message",
        id: "a1b2c3d4",
        parentId: null,
        timestamp: "2026-01-01T00:00:01.000Z",
        message: { role: "user", content: "deploy the thing", timestamp: 1 },
      },
      { type: "label", id: "e5f6a7b8", parentId: "a1b2c3d4", timestamp: "2026-01-01T00:00:02.000Z", targetId: "a1b2c3d4", label: "Milestone" },
    ];
    const text = lines.map((l) => `${JSON.stringify(l)}\n`).join("");
    const session = Session.fromText(text);
    const expected = searchSession(session, "deploy milestone");
    expect(expected.entryIds).toEqual(new Set(["a1b2c3d4"]));
    expect(streamed(session, text, "deploy milestone", 1)).toEqual(expected);
  });

  it("parses a line whose escapes could write a term's letters another way (a writer that escapes all but ASCII)", () => {
    // U+212A KELVIN SIGN folds to "k": the text holds "kelvin" once decoded, the line as written does not
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const line =
      '{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"\\u212aelvin scale","timestamp":1}}';
    const text = `${header}\n${line}\n`;
    const session = Session.fromText(text);
    expect(searchSession(session, "kelvin").entryIds).toEqual(new Set(["a1b2c3d4"]));
    expect(streamed(session, text, "kelvin", 2)).toEqual(searchSession(session, "kelvin"));
    // and as UTF-8, unescaped: its bytes are not "k" either
    const written = `${header}\n${JSON.stringify({ type: "message", id: "a1b2c3d4", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "\u212aelvin scale", timestamp: 1 } })}\n`;
    expect(written).toContain("\u212a");
    const unescaped = Session.fromText(written);
    expect(searchSession(unescaped, "kelvin").entryIds).toEqual(new Set(["a1b2c3d4"]));
    expect(streamed(unescaped, written, "kelvin", 3)).toEqual(searchSession(unescaped, "kelvin"));
  });

  it("reports its hits as they are found, and how many entries it has searched", () => {
    const text = cases().find((c) => c.name === "generated 1500")!.text;
    const session = Session.fromText(text);
    const search = new StreamSearch("the", session.tree.entryLines, new Map());
    const bytes = new TextEncoder().encode(text);
    search.push(bytes.subarray(0, bytes.length >> 1));
    const half = search.result();
    expect(half.complete).toBe(false);
    expect(half.searched).toBeGreaterThan(0);
    expect(half.searched).toBeLessThan(session.tree.entries.length);
    expect(half.total).toBeGreaterThan(0);
    search.push(bytes.subarray(bytes.length >> 1));
    expect(search.end()).toEqual(searchSession(session, "the"));
  });
});

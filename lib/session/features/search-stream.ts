/**
 * A search run through a session file's bytes as they stream by, for a session
 * too big to hold its content (a page runs it in a worker, lib/client/search.worker.ts):
 * nothing is kept but the hits. It answers what searchSession answers on the
 * same file: the entries are the lines the index made entries (`entryLines`),
 * each searched with its fields and the label it carries.
 *
 * Most lines hold no term at all, so a line is decoded and parsed only when it
 * could match: every term occurs in it as written (or in the label of an entry
 * it may be). The test reads the bytes as one character each (windows-1252,
 * which maps every byte and leaves ASCII as it is), far faster than decoding
 * UTF-8 in a browser; it is exact for terms JSON writes as they are (LITERAL)
 * on lines without escapes or characters that could hide them. Any other line,
 * or any other term, is parsed.
 */
import { isObject } from "../json";
import type { SessionEntry } from "../types";
import { entryFields, foldCase, HitCollector, SEARCH_LIMIT, type SearchDoc, type SearchResult } from "./search";

/**
 * Printable ASCII that JSON writes as itself and that is not JSON's punctuation (`{}[]:,`, which a tool call's
 * arguments, searched as JSON text, may have spaced otherwise): a term made only of these occurs in the line's
 * text as it is. (A number written as `1e3` is searched as `1000`; pi writes numbers as JSON.stringify does.)
 */
const LITERAL = /^[\x20-\x21\x23-\x2b\x2d\x2e\x30-\x39\x3b-\x5a\x5e-\x7a\x7c\x7e]+$/;

const NEWLINE = 0x0a;

export class StreamSearch {
  private readonly collect: HitCollector;
  /** whether the line test can skip lines: every term is LITERAL */
  private readonly literal: boolean;
  /** labels that hold some term, with their ids as JSON writes them */
  private readonly labelled: { quoted: string; lower: string }[] = [];
  private readonly bytes = new TextDecoder("windows-1252");
  private readonly utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  /** the start of a line that continues in the next chunk */
  private carry: Uint8Array[] = [];
  private line = 0;
  private next = 0;
  /** entries searched so far */
  searched = 0;

  /**
   * `entryLines`: the line numbers (1-based, ascending) of the entries the session's index holds, in file
   * order; `labels`: the label each entry carries, by id.
   */
  constructor(
    query: string,
    private readonly entryLines: ArrayLike<number>,
    private readonly labels: ReadonlyMap<string, string>,
    limit = SEARCH_LIMIT,
  ) {
    this.collect = new HitCollector(foldCase(query.trim()), limit);
    let literal = this.collect.terms.length > 0 && this.collect.terms.every((term) => LITERAL.test(term));
    for (const [id, label] of labels) {
      const lower = foldCase(label);
      if (!this.collect.terms.some((term) => lower.includes(term))) continue;
      this.labelled.push({ quoted: JSON.stringify(id), lower });
      // the test looks for the id in the line's bytes read one character each: a plain id only
      if (!/^[\x20-\x7e]*$/.test(id)) literal = false;
    }
    this.literal = literal;
  }

  /** The next bytes of the file (lines may span chunks; the chunk is not kept). */
  push(chunk: Uint8Array): void {
    if (this.collect.terms.length === 0) return;
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      if (this.carry.length) {
        this.carry.push(chunk.subarray(start, nl));
        this.onLine(joined(this.carry));
        this.carry = [];
      } else this.onLine(chunk.subarray(start, nl));
      start = nl + 1;
    }
    if (start < chunk.length) this.carry.push(chunk.slice(start));
  }

  /** The bytes have ended: the last line, if it had no newline, is searched too. */
  end(): SearchResult {
    if (this.carry.length) this.onLine(joined(this.carry));
    this.carry = [];
    return this.result(true);
  }

  /** The hits so far (complete: false until end()). */
  result(complete = false): SearchResult {
    return this.collect.result(complete, complete ? this.entryLines.length : this.searched);
  }

  private onLine(bytes: Uint8Array): void {
    const line = ++this.line;
    if (this.entryLines[this.next] !== line) return;
    this.next++;
    this.searched++;
    if (this.literal && !hasKelvin(bytes) && !this.mayMatch(this.bytes.decode(bytes))) return;
    let entry: unknown;
    try {
      entry = JSON.parse(this.utf8.decode(bytes));
    } catch {
      return; // the index made it an entry, so it parses; a file changed since cannot add hits that are not there
    }
    if (!isObject(entry) || typeof entry.id !== "string") return;
    const id = entry.id;
    const docs: SearchDoc[] = [];
    const add = (field: SearchDoc["field"], value: string) => {
      if (value.trim()) docs.push({ entryId: id, entry: 0, field, text: value, lower: foldCase(value) });
    };
    for (const [field, value] of entryFields(entry as SessionEntry)) add(field, value);
    const label = this.labels.get(id);
    if (label) add("label", label);
    if (docs.length) this.collect.entry(docs);
  }

  /** False only when the line (its bytes, one character each) cannot hold every term, in its text or in the label of the entry it is. */
  private mayMatch(text: string): boolean {
    // an escape could write a term's letters another way: such a line is parsed
    if (text.includes("\\u") || text.includes("\\/")) return true;
    const lower = text.toLowerCase();
    const missing = this.collect.terms.filter((term) => !lower.includes(term));
    if (missing.length === 0) return true;
    return this.labelled.some((l) => text.includes(l.quoted) && missing.every((term) => l.lower.includes(term)));
  }
}

/** Whether the line holds U+212A KELVIN SIGN, which folds to "k": its bytes do not show that, so such a line is parsed. */
function hasKelvin(bytes: Uint8Array): boolean {
  for (let i = bytes.indexOf(0xe2); i !== -1; i = bytes.indexOf(0xe2, i + 1)) if (bytes[i + 1] === 0x84 && bytes[i + 2] === 0xaa) return true;
  return false;
}

function joined(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

import { describe, expect, it } from "vitest";
import { compileRedaction } from "@/lib/export/redaction-rules";
import { Session } from "@/lib/session";
import { lineRedactor } from "./redactor";
import { shareData, type ShareDataOptions } from "./share-data";

const rules = compileRedaction({ builtIn: false, literals: ["Globex"], homePaths: true });
if ("errors" in rules) throw new Error("rules");
const redactor = lineRedactor(rules);

const HEADER = '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/srv/app"}';
const entry = (id: string, parentId: string | null, rest: string) =>
  `{"type":"custom","id":"${id}","parentId":${parentId === null ? "null" : `"${parentId}"`},"timestamp":"2026-01-01T00:00:01.000Z"${rest}}`;

function shared(lines: string[], options: Partial<ShareDataOptions> = {}, name = "s.jsonl") {
  const text = `${lines.join("\n")}\n`;
  return shareData(Session.fromText(text), text, name, { scope: "session", entryId: null, redactor, ...options });
}

describe("shareData with a redactor", () => {
  it("keeps a line no rule matches byte for byte, its spelling of numbers and escapes too", () => {
    const untouched = entry("c1", null, ',"customType":"x","data":{"n":1.0,"big":12345678901234567890,"s":"\\u00e9"}');
    const touched = entry("c2", "c1", ',"customType":"x","data":{"n":1.0,"s":"for Globex"}');
    const out = shared([HEADER, untouched, touched]);
    const [, first, second] = out.text.split("\n");
    expect(first).toBe(untouched);
    expect(JSON.parse(second!).data).toEqual({ n: 1, s: "for [REDACTED:literal-1]" });
    expect(out.counts).toEqual({ "literal-1": 1 });
  });

  it("writes a line that names a key twice from its parsed value, so the first value, which no rule saw, is gone", () => {
    const line = entry("c1", null, ',"customType":"x","data":{"note":"for Globex","note":"clean"}');
    const out = shared([HEADER, line]);
    const written = out.text.split("\n")[1]!;
    expect(written).not.toContain("Globex");
    expect(JSON.parse(written)).toEqual(JSON.parse(line));
    expect(out.counts).toEqual({});
  });

  it("keeps such a line as it is when nothing is redacted", () => {
    const line = entry("c1", null, ',"customType":"x","data":{"note":"for Globex","note":"clean"}');
    expect(shared([HEADER, line], { redactor: null }).text.split("\n")[1]).toBe(line);
    expect(shared([HEADER, line], { redactor: null, dropImages: true }).text.split("\n")[1]).toBe(line);
  });

  it("masks the file name the manifest gives, without counting it", () => {
    expect(shared([HEADER], {}, "Globex-audit.jsonl")).toMatchObject({ fileName: "[REDACTED:literal-1]-audit.jsonl", counts: {} });
    expect(shared([HEADER], { redactor: null }, "Globex-audit.jsonl").fileName).toBe("Globex-audit.jsonl");
  });
});

describe("shareData's file name for a path", () => {
  it("names the entry as it is, `$` patterns in its id included", () => {
    const ids = ["e$&", "e$'", "e$`", "e$$", "e$1"];
    const lines = [HEADER, ...ids.map((id, i) => entry(id, i === 0 ? null : ids[i - 1]!, ""))];
    for (const id of ids) {
      const out = shared(lines, { scope: "path", entryId: id, redactor: null }, "2026_abc.jsonl");
      expect(out.fileName).toBe(`2026_abc.path-${id}.jsonl`);
    }
  });
});

import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { piExportRenderer } from "../testing/pi-export-template";
import { Rng } from "../testing/rng";
import { diffOfEdits, parsePiDiff, readRange, sideBySide, toolViewOf, type DiffLine } from "./tool-view";

// pi 1.6.0's own diff (the one its edit tool records in details.diff)
let generateDiffString: (oldText: string, newText: string) => { diff: string };
beforeAll(async () => {
  const file = path.resolve(__dirname, "../../../node_modules/pi-coding-agent-160/dist/core/tools/edit-diff.js");
  ({ generateDiffString } = await import(pathToFileURL(file).href));
});

const WORDS = ["const", "x", "=", "1;", "return", "pool", "}", "{", "// note", "", "  ", "\t", "12 apples", "-", "+"];
function randomFile(rng: Rng, lines: number): string[] {
  return Array.from({ length: lines }, () => Array.from({ length: rng.int(4) }, () => WORDS[rng.int(WORDS.length)]).join(" "));
}
function mutate(rng: Rng, lines: string[]): string[] {
  const out = [...lines];
  for (let n = rng.int(4) + 1; n > 0; n--) {
    const at = rng.int(out.length + 1);
    const kind = rng.int(3);
    if (kind === 0) out.splice(at, 0, ...randomFile(rng, rng.int(3) + 1));
    else if (kind === 1) out.splice(at, rng.int(3) + 1);
    else out.splice(at, 1, `changed ${rng.int(100)}`);
  }
  return out;
}
const unnumbered = (lines: DiffLine[]) => lines.map(({ sign, text, gap }) => ({ sign, text, gap: gap ?? false }));

describe("parsePiDiff", () => {
  it("reads every line of the diffs pi writes back into sign, line number and text", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rng = new Rng(seed);
      const before = randomFile(rng, rng.int(40) + 1);
      const { diff } = generateDiffString(`${before.join("\n")}\n`, `${mutate(rng, before).join("\n")}\n`);
      if (!diff) continue;
      const written = diff.split("\n");
      const read = parsePiDiff(diff);
      expect(read).toHaveLength(written.length);
      read.forEach((line, i) => {
        const original = written[i]!;
        if (line.gap) expect(original, `${seed}:${i}`).toMatch(/^ +\.\.\.$/);
        // sign, the number right-aligned in pi's width, a space, the text: exactly the line pi wrote
        else expect(`${line.sign}${String(line.line).padStart(original.length - line.text.length - 2)} ${line.text}`, `${seed}:${i}`).toBe(original);
      });
    }
  });

  it("reads a diff written before pi numbered its lines as sign and text, whatever the text starts with", () => {
    expect(parsePiDiff("-return 12 apples;\n+12 return")).toEqual([
      { sign: "-", line: null, text: "return 12 apples;" },
      { sign: "+", line: null, text: "12 return" },
    ]);
  });
});

describe("diffOfEdits", () => {
  it("is pi's own diff of the same texts, without the line numbers it cannot know", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rng = new Rng(seed);
      const before = randomFile(rng, rng.int(40) + 1);
      const oldText = `${before.join("\n")}\n`;
      const newText = `${mutate(rng, before).join("\n")}\n`;
      const { diff } = generateDiffString(oldText, newText);
      // (no change: pi writes no line)
      expect(unnumbered(diffOfEdits([{ oldText, newText }])), String(seed)).toEqual(diff ? unnumbered(parsePiDiff(diff)) : []);
    }
  });

  it("separates the replacements of one call with a gap", () => {
    expect(
      diffOfEdits([
        { oldText: "a", newText: "b" },
        { oldText: "c", newText: "d" },
      ]),
    ).toEqual([
      { sign: "-", line: null, text: "a" },
      { sign: "+", line: null, text: "b" },
      { sign: " ", line: null, text: "...", gap: true },
      { sign: "-", line: null, text: "c" },
      { sign: "+", line: null, text: "d" },
    ]);
  });
});

describe("sideBySide", () => {
  it("puts each run of removed lines beside the added lines that replace it, and keeps every line once per side", () => {
    const lines = parsePiDiff(" 1 a\n-2 b\n-3 c\n+2 B\n 4 d\n+5 e");
    const rows = sideBySide(lines);
    expect(rows.map((row) => [row.left?.text ?? null, row.right?.text ?? null])).toEqual([
      ["a", "a"],
      ["b", "B"],
      ["c", null],
      ["d", "d"],
      [null, "e"],
    ]);
  });
});

describe("readRange", () => {
  it("writes a read's range as pi's export does", () => {
    const pi = piExportRenderer([]);
    for (const offset of [undefined, null, 1, 8, "8", "", "x", 0, -3, 2.5])
      for (const limit of [undefined, null, 1, 6, "6", "", "y", 0, 2000])
        expect(readRange(offset, limit), `${String(offset)} ${String(limit)}`).toBe(pi.formatReadLineRange(offset, limit));
  });
});

describe("toolViewOf bash", () => {
  const run = (text: string, isError = false, details?: unknown) =>
    toolViewOf(
      { id: "c", name: "bash", arguments: { command: "npm test" } },
      { role: "toolResult", toolCallId: "c", toolName: "bash", content: [{ type: "text", text }], isError, details },
    );

  it("reads the exit code and status line pi's bash closes its text with", () => {
    expect(run("ok")).toMatchObject({ exitCode: 0, status: "exited", shown: "ok" });
    expect(run("boom\n\nCommand exited with code 2", true)).toMatchObject({ exitCode: 2, status: "exited", shown: "boom" });
    expect(run("Command exited with code 127", true)).toMatchObject({ exitCode: 127, shown: "" });
    expect(run("partial\n\nCommand aborted", true)).toMatchObject({ exitCode: null, status: "aborted", shown: "partial" });
    expect(run("x\n\nCommand timed out after 30 seconds", true)).toMatchObject({ status: "timed out", shown: "x" });
    expect(run("spawn failed", true)).toMatchObject({ exitCode: null, status: "no exit code" });
    expect(toolViewOf({ id: "c", name: "bash", arguments: { command: "x" } }, null)).toMatchObject({ exitCode: null, status: "pending" });
  });

  it("reads pi 1.6's powershell as the same shell tool (createShellToolDefinition writes both), with its shell named", () => {
    const shell = (name: string, text: string, isError: boolean) =>
      toolViewOf(
        { id: "c", name, arguments: { command: "Get-ChildItem", timeout: 30 } },
        {
          role: "toolResult",
          toolCallId: "c",
          toolName: name,
          content: [{ type: "text", text }],
          isError,
          details: { fullOutputPath: "/tmp/pi-powershell-1.log" },
        },
      );
    for (const [text, isError] of [
      ["ok", false],
      ["boom\n\nCommand exited with code 2", true],
      ["partial\n\nCommand aborted", true],
      ["x\n\n[Showing lines 1-2 of 9. Full output: /tmp/pi-powershell-1.log]\n\nCommand exited with code 1", true],
    ] as const) {
      const bash = shell("bash", text, isError);
      const powershell = shell("powershell", text, isError);
      expect(powershell).toMatchObject({ tool: "bash", shell: "powershell", name: "powershell" });
      expect({ ...powershell, name: "bash", shell: "bash", result: bash.result }).toEqual(bash);
    }
    expect(shell("bash", "ok", false)).toMatchObject({ shell: "bash" });
  });

  it("keeps pi's truncation note and the full output's path", () => {
    const view = run("line 3\n\n[Showing lines 2-3 of 3. Full output: /tmp/pi-bash-1.log]", false, {
      truncation: { truncated: true },
      fullOutputPath: "/tmp/pi-bash-1.log",
    });
    expect(view).toMatchObject({ truncation: "Showing lines 2-3 of 3. Full output: /tmp/pi-bash-1.log", fullOutputPath: "/tmp/pi-bash-1.log" });
  });
});

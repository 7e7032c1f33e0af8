import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Session, SessionQueryError, type JsonObject, type TreeEntry } from "..";
import { FIXTURES_DIR } from "../testing/golden";
import { LINEAR_HEADER, linearSession } from "../testing/linear-session";
import { transcriptMarkdown, transcriptTitle } from "./transcript";

function fixture(name: string): Session {
  return Session.fromText(readFileSync(path.join(FIXTURES_DIR, `${name}.jsonl`), "utf8"));
}

const HEADER = LINEAR_HEADER;
const linear = (messages: JsonObject[], extra: JsonObject[] = []) => linearSession(messages, extra);

const messageOf = (entry: TreeEntry) => entry.message as JsonObject;
const textsOf = (content: unknown): string[] =>
  typeof content === "string" ? [content] : (content as JsonObject[]).filter((b) => b.type === "text").map((b) => b.text as string);

describe("transcriptMarkdown", () => {
  it("has the session name as title, the session facts, and every message of the path in order", () => {
    const session = fixture("ca-roles-a");
    const leaf = session.leafId!;
    const md = transcriptMarkdown(session, leaf);
    expect(md.split("\n")[0]).toBe(`# ${session.name}`);
    expect(md).toContain(`\`${session.header!.id}\``);
    expect(md).toContain(`\`${session.header!.cwd}\``);

    const branch = session.branch(leaf);
    let cursor = 0;
    for (const entry of branch) {
      if (entry.type !== "message") continue;
      const message = messageOf(entry);
      if (message.role !== "user" && message.role !== "assistant") continue;
      for (const text of textsOf(message.content)) {
        const at = md.indexOf(text, cursor);
        expect(at, `text of ${entry.id} in path order`).toBeGreaterThanOrEqual(cursor);
        cursor = at;
      }
    }
  });

  it("writes tool calls as fenced pretty JSON, thinking in <details>, images as notes", () => {
    const session = fixture("ca-roles-a");
    const md = transcriptMarkdown(session, session.leafId!);
    const blocks = session
      .branch(session.leafId!)
      .flatMap((e) => (e.type === "message" && Array.isArray(messageOf(e).content) ? (messageOf(e).content as JsonObject[]) : []));
    const call = blocks.find((b) => b.type === "toolCall")!;
    expect(md).toContain(`**Tool call** \`${call.name}\`\n\n\`\`\`json\n${JSON.stringify(call.arguments, null, 2)}\n\`\`\``);
    const thinking = blocks.find((b) => b.type === "thinking")!;
    expect(md).toContain(`<details>\n<summary>Thinking</summary>\n\n${thinking.thinking}\n\n</details>`);
    const image = blocks.find((b) => b.type === "image")!;
    expect(md).toContain(`_[image: ${image.mimeType}`);
    expect(md).not.toContain(image.data as string);
    expect(transcriptMarkdown(session, session.leafId!, { thinking: false })).not.toContain("<summary>Thinking</summary>");
  });

  it("quotes a compaction summary line by line", () => {
    const session = fixture("ca-compaction-a");
    const compaction = session.branch(session.leafId!).find((e) => e.type === "compaction")!;
    const md = transcriptMarkdown(session, session.leafId!);
    const quoted = (compaction.summary as string)
      .split("\n")
      .map((line) => (line ? `> ${line}` : ">"))
      .join("\n");
    expect(md).toContain(`> **Compaction** (${compaction.tokensBefore} tokens before)\n>\n${quoted}`);
  });

  it("quotes branch summaries with the entry they come from", () => {
    const session = fixture("ca-branching-a");
    const summary = session.tree.entries.find((e): e is TreeEntry => e.type === "branch_summary" && typeof e.summary === "string" && e.summary.length > 0)!;
    const md = transcriptMarkdown(session, summary.id);
    expect(md).toContain(`> **Branch summary** (from \`${summary.fromId}\`)`);
    expect(md).toContain(`> ${(summary.summary as string).split("\n")[0]}`);
  });

  it("cuts very long tool output with a note, and fences output that holds backticks safely", () => {
    const long = "x".repeat(10_000);
    const session = linear([
      { role: "user", content: "run it" },
      { role: "toolResult", toolCallId: "t1", toolName: "bash", content: [{ type: "text", text: long }], isError: false },
      { role: "toolResult", toolCallId: "t2", toolName: "read", content: [{ type: "text", text: "```\ninner fence\n```" }], isError: true },
    ]);
    const md = transcriptMarkdown(session, "m3", { maxOutputChars: 1000 });
    expect(md).not.toContain(long);
    expect(md).toContain(`${"x".repeat(1000)}\n… (truncated: 1000 of 10000 characters shown)`);
    expect(md).toContain("### Tool result `read` (error)\n\n````\n```\ninner fence\n```\n````");
  });

  it("writes bash executions with their flags", () => {
    const session = linear([
      { role: "user", content: "go" },
      { role: "bashExecution", command: "cat secrets", output: "s3cret", exitCode: 0, cancelled: false, truncated: true, excludeFromContext: true },
    ]);
    const md = transcriptMarkdown(session, "m2");
    expect(md).toContain("## Bash (exit code 0, output truncated by pi, not sent to the model)\n\n```console\n$ cat secrets\ns3cret\n```");
  });

  it("titles an unnamed session by its first user message, else by its id", () => {
    const session = linear([
      { role: "user", content: [{ type: "text", text: "Please   fix the flaky test in ci" }] },
      { role: "assistant", content: [] },
    ]);
    expect(session.name).toBeNull();
    expect(transcriptTitle(session, session.branch("m2"))).toBe("Please fix the flaky test in ci");
    expect(transcriptMarkdown(session, "m2").split("\n")[0]).toBe("# Please fix the flaky test in ci");
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
    const wordy = linear([{ role: "user", content: words }]);
    // a heading, shorter than the top bar's title: 80 characters at most, the last one an ellipsis
    expect(transcriptTitle(wordy, wordy.branch("m1"))).toBe(`${words.slice(0, 79).trimEnd()}…`);
    const noUser = linear([{ role: "assistant", content: [] }]);
    expect(transcriptTitle(noUser, noUser.branch("m1"))).toBe(`Session ${HEADER.id}`);
  });

  it("ends at the given entry: later messages are not in it", () => {
    const session = fixture("ca-branching-a");
    const users = session.tree.entries.filter((e): e is TreeEntry => e.type === "message" && messageOf(e as TreeEntry).role === "user");
    const first = users[0]!;
    const md = transcriptMarkdown(session, first.id);
    const onPath = new Set(session.branch(first.id).map((e) => e.id));
    for (const other of users) {
      if (onPath.has(other.id)) continue;
      const text = textsOf(messageOf(other).content).join(" ");
      if (text && !textsOf(messageOf(first).content).join(" ").includes(text)) expect(md).not.toContain(text);
    }
  });

  it("throws the session's query error on a parent cycle", () => {
    const session = fixture("edge-cycle-at-leaf");
    const leaf = session.leafId!;
    expect(() => session.branch(leaf)).toThrow(SessionQueryError);
    expect(() => transcriptMarkdown(session, leaf)).toThrow(SessionQueryError);
  });
});

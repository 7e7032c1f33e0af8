import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Session, SessionQueryError, type JsonObject, type TreeEntry } from "@/lib/session";
import { FIXTURES_DIR } from "@/lib/session/testing/golden";
import { LINEAR_HEADER, linearSession } from "@/lib/session/testing/linear-session";
import { transcriptMarkdown, transcriptTitle } from "./markdown-transcript";

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

  it("writes tool calls by their tool, thinking in <details>, images as notes", () => {
    const session = fixture("ca-roles-a");
    const md = transcriptMarkdown(session, session.leafId!);
    const blocks = session
      .branch(session.leafId!)
      .flatMap((e) => (e.type === "message" && Array.isArray(messageOf(e).content) ? (messageOf(e).content as JsonObject[]) : []));
    const calls = blocks.filter((b) => b.type === "toolCall");
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      const args = call.arguments as JsonObject;
      if (call.name === "bash") expect(md).toContain(`**Tool call** \`bash\`\n\n\`\`\`bash\n${String(args.command)}\n\`\`\``);
      else if (call.name === "read") expect(md).toContain(`**Tool call** \`read\` \`${String(args.path)}`);
      else if (call.name !== "edit" && call.name !== "write")
        expect(md).toContain(`**Tool call** \`${String(call.name)}\`\n\n\`\`\`json\n${JSON.stringify(args, null, 2)}\n\`\`\``);
    }
    const thinking = blocks.find((b) => b.type === "thinking")!;
    expect(md).toContain(`<details>\n<summary>Thinking</summary>\n\n${thinking.thinking}\n\n</details>`);
    const image = blocks.find((b) => b.type === "image")!;
    expect(md).toContain(`_[image: ${image.mimeType}`);
    expect(md).not.toContain(image.data as string);
    expect(transcriptMarkdown(session, session.leafId!, { thinking: false })).not.toContain("<summary>Thinking</summary>");
  });

  it("writes an edit as a diff block of pi's recorded diff, a bash run as its command then its output and exit code", () => {
    const text = readFileSync(
      path.join(__dirname, "../../e2e/fixtures/sessions/--home-dev-projects-tools--/2026-02-12T10-00-00-001Z_019c514b-1101-7077-9a7c-f772f06fbfdc.jsonl"),
      "utf8",
    );
    const session = Session.fromText(text);
    const md = transcriptMarkdown(session, session.leafId!);
    const messages = session.branch(session.leafId!).map((e) => messageOf(e));
    const edit = messages.find((m) => m.role === "toolResult" && m.toolName === "edit" && m.isError === false)!;
    // pi's lines are sign, padded number, space, text: the diff block holds sign and text
    const lines = String((edit.details as JsonObject).diff)
      .split("\n")
      .map((line) => (/^ +\.\.\.$/.test(line) ? " ..." : line.replace(/^([+\- ]) *\d+ /, "$1")));
    expect(md).toContain(`**Tool call** \`edit\` \`src/pool.ts\`\n\n\`\`\`diff\n${lines.join("\n")}\n\`\`\``);
    const bash = messages.find((m) => m.role === "assistant" && (m.content as JsonObject[]).some((b) => b.type === "toolCall" && b.name === "bash"))!;
    const command = String(((bash.content as JsonObject[]).find((b) => b.name === "bash")!.arguments as JsonObject).command);
    const at = md.indexOf(`\`\`\`bash\n${command}\n\`\`\``);
    expect(at).toBeGreaterThan(0);
    // its output follows, without the terminal's escape codes, and the exit code pi appended
    const output = md.slice(at).match(/### Tool result `bash` \(error\)\n\n```\n([^]*?)\n```\n\n_exit code 1_/);
    expect(output?.[1]).toBe("pool.test.ts\n  ✓ caps max at 10\n  ✗ rejects an empty url\nwarning: see the pool docs");
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

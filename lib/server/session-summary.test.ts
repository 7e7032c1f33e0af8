import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Session } from "../session";
import { listFixtures } from "../session/testing/golden";
import { SummaryScanner } from "./session-summary";

function summarize(text: string, countBranches = true, chunk = 4096) {
  const scanner = new SummaryScanner({ countBranches });
  for (let i = 0; i < text.length; i += chunk) scanner.push(text.slice(i, i + chunk));
  return scanner.end();
}

/** What the full reader says, in the summary's terms. */
function expected(session: Session) {
  const account = session.account();
  const tree = session.tree;
  let branchCount = 0;
  for (const id of tree.ids()) if (tree.children(id).length > 1) branchCount++;
  let firstMessage: string | null = null;
  for (const entry of tree.entries) {
    const message = entry.message as { role?: unknown; content?: unknown } | undefined;
    if (entry.type !== "message" || message?.role !== "user") continue;
    const content = message.content;
    const text =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content
              .filter((b) => b?.type === "text")
              .map((b) => b.text)
              .join(" ")
          : "";
    firstMessage = text.replace(/\s+/g, " ").trim() || null;
    break;
  }
  return {
    entryCount: account.total - account.blank - account.header - account["extra-header"],
    sessionName: session.name,
    branchCount,
    firstMessage,
  };
}

describe("SummaryScanner agrees with the full reader", () => {
  it.each(listFixtures().map((f) => [f.name, f.file]))("%s", (_name, file) => {
    const text = readFileSync(file, "utf8");
    const session = Session.fromText(text);
    const summary = summarize(text);
    const want = expected(session);
    expect(summary.entryCount).toBe(want.entryCount);
    expect(summary.sessionName).toBe(want.sessionName);
    expect(summary.branchCount).toBe(want.branchCount);
    if (want.firstMessage === null || want.firstMessage.length < 200) expect(summary.firstMessage).toBe(want.firstMessage);
    else expect(want.firstMessage.startsWith(summary.firstMessage!.slice(0, -1))).toBe(true);
    if (session.header && !session.parser.caRefused) {
      expect(summary.id).toBe(session.header.id);
      expect(summary.cwd).toBe(session.header.cwd);
      expect(summary.timestamp).toBe(session.header.timestamp);
    } else {
      expect(summary.id).toBeNull();
    }
  });
});

describe("SummaryScanner", () => {
  const header = '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';
  const entry = (id: string, parentId: string | null, extra = "") =>
    `{"type":"message","id":"${id}","parentId":${parentId === null ? "null" : `"${id === parentId ? id : parentId}"`},"timestamp":"2026-01-01T00:00:01.000Z"${extra}}`;

  it("is independent of how the text is chunked", () => {
    const text = [
      header,
      entry("a", null),
      entry("b", "a"),
      entry("c", "a"),
      '{"type":"session_info","id":"n","parentId":"c","name":"  Fix the build \\n"}',
      "",
    ].join("\n");
    const whole = summarize(text, true, text.length);
    for (const size of [1, 2, 7, 64]) expect(summarize(text, true, size)).toEqual(whole);
    expect(whole).toMatchObject({ id: "s1", cwd: "/w", entryCount: 4, branchCount: 1, sessionName: "Fix the build" });
  });

  it("takes the last session_info, and an empty one clears the name", () => {
    const text = [
      header,
      '{"type":"session_info","id":"a","parentId":null,"name":"first"}',
      '{"type":"session_info","id":"b","parentId":"a","name":"  "}',
    ].join("\n");
    expect(summarize(text).sessionName).toBeNull();
  });

  it("omits the branch count when asked not to count", () => {
    expect(summarize([header, entry("a", null)].join("\n"), false).branchCount).toBeNull();
  });

  it("counts unreadable lines as entry lines and skips blank ones", () => {
    const text = [header, "", entry("a", null), "{not json", "   ", entry("b", "a"), ""].join("\n");
    expect(summarize(text).entryCount).toBe(3);
  });

  it("shortens a long first message", () => {
    const long = "word ".repeat(100);
    const text = [header, entry("a", null, `,"message":{"role":"user","content":[{"type":"text","text":"${long}"}]}`)].join("\n");
    const first = summarize(text).firstMessage!;
    expect(first.length).toBe(200);
    expect(first.endsWith("…")).toBe(true);
  });
});

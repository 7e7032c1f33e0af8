import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBoundedSummary, SUMMARY_LIMITS } from "./read-summary";
import { SummaryScanner } from "./session-summary";

let dir: string;

const header = JSON.stringify({ type: "session", version: 3, id: "big-session", timestamp: "2026-01-01T10:00:00.000Z", cwd: "/home/dev/app" });
const user = (id: string, parentId: string | null, text: string) =>
  JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T10:00:01.000Z", message: { role: "user", content: text } });
const info = (id: string, parentId: string | null, name: string) =>
  JSON.stringify({ type: "session_info", id, parentId, timestamp: "2026-01-01T10:00:02.000Z", name });
const result = (id: string, parentId: string, size: number) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: "2026-01-01T10:00:03.000Z",
    message: {
      role: "toolResult",
      toolCallId: `call_${id}`,
      toolName: "bash",
      content: [{ type: "text", text: "x".repeat(size) }],
      isError: false,
      timestamp: 1,
    },
  });

/** A session of about `bytes` bytes: header, a named start, tool results of varying size, then `ending`. */
function writeBig(file: string, bytes: number, ending: (last: string) => string[]): number {
  const fd = openSync(file, "w");
  let written = 0;
  let entries = 0;
  const put = (line: string) => {
    written += writeSync(fd, line + "\n");
  };
  put(header);
  put(user("u0", null, "Find out why   the build\nfails"));
  put(info("n0", "u0", "First name"));
  entries += 2;
  let last = "n0";
  for (let i = 1; written < bytes; i++) {
    const id = `r${i}`;
    put(result(id, last, 200 + ((i * 7919) % 1800)));
    last = id;
    entries++;
  }
  for (const line of ending(last)) {
    put(line);
    entries++;
  }
  closeSync(fd);
  return entries;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "read-summary-"));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readBoundedSummary", () => {
  it("reads only the start and the end of a 50 MB session", async () => {
    const file = path.join(dir, "big.jsonl");
    const entries = writeBig(file, 50 * 1024 * 1024, (last) => [info("n1", last, "  Renamed at the end  ")]);
    const size = statSync(file).size;
    const { summary, bytesRead } = await readBoundedSummary(file, size);

    expect(bytesRead).toBeLessThanOrEqual(SUMMARY_LIMITS.head + SUMMARY_LIMITS.tail);
    expect(bytesRead).toBeLessThan(size / 50);
    expect(summary.id).toBe("big-session");
    expect(summary.cwd).toBe("/home/dev/app");
    expect(summary.timestamp).toBe("2026-01-01T10:00:00.000Z");
    expect(summary.firstMessage).toBe("Find out why the build fails");
    expect(summary.sessionName).toBe("Renamed at the end");
    // not counted: an estimate from the lines read, close to the real count
    expect(Math.abs(summary.entryCount - entries) / entries).toBeLessThan(0.05);
    expect(summary.entryCountEstimated).toBe(true);
    expect(summary.branchCount).toBeNull();
  });

  it("keeps the early name when the end renames nothing, and an empty name at the end clears it", async () => {
    const kept = path.join(dir, "kept.jsonl");
    writeBig(kept, 4 * 1024 * 1024, () => []);
    expect((await readBoundedSummary(kept, statSync(kept).size)).summary.sessionName).toBe("First name");

    const cleared = path.join(dir, "cleared.jsonl");
    writeBig(cleared, 4 * 1024 * 1024, (last) => [info("n1", last, "   ")]);
    expect((await readBoundedSummary(cleared, statSync(cleared).size)).summary.sessionName).toBeNull();
  });

  it("reads a small file whole and counts it exactly, branches included", async () => {
    const file = path.join(dir, "small.jsonl");
    const lines = [header, user("a", null, "hello"), user("b", "a", "one way"), user("c", "a", "other way"), info("i", "c", "Small")];
    writeFileSync(file, lines.join("\n") + "\n");
    const size = statSync(file).size;
    const { summary, bytesRead } = await readBoundedSummary(file, size);

    const scanner = new SummaryScanner({ countBranches: true });
    scanner.push(readFileSync(file, "utf8"));
    expect(summary).toEqual(scanner.end());
    expect(summary.branchCount).toBe(1);
    expect(bytesRead).toBe(size);
  });

  it("sees a BOM before the header as pi does: no header", async () => {
    const file = path.join(dir, "bom.jsonl");
    writeFileSync(file, "\ufeff" + header + "\n" + user("a", null, "hi") + "\n");
    expect((await readBoundedSummary(file, statSync(file).size)).summary.id).toBeNull();
  });
});

// The cache folder is the user's alone, and one that is not is not used.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lightIndexResponse } from "./light-index";
import { privateDir } from "./private-dir";

const root = mkdtempSync(path.join(os.tmpdir(), "private-dir-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const mode = (p: string) => statSync(p).mode & 0o777;
const uid = process.getuid!();

describe("privateDir", () => {
  it("makes the folder and its missing parents 0700", () => {
    const dir = path.join(root, "a", "b");
    expect(privateDir(dir)).toBe(true);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(root, "a"))).toBe(0o700);
  });

  it("closes a folder of ours that others can read", () => {
    const dir = path.join(root, "open");
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    expect(privateDir(dir)).toBe(true);
    expect(mode(dir)).toBe(0o700);
  });

  it("refuses a folder another user owns, and a file in its place", () => {
    const dir = path.join(root, "theirs");
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    expect(privateDir(dir, uid + 1)).toBe(false);
    expect(mode(dir)).toBe(0o777); // not ours to change
    const file = path.join(root, "a-file");
    writeFileSync(file, "");
    expect(privateDir(file)).toBe(false);
  });
});

describe("the light index route with a cache folder it cannot use", () => {
  it("answers from the file and keeps nothing", async () => {
    const sessions = path.join(root, "sessions");
    mkdirSync(path.join(sessions, "--p--"), { recursive: true });
    const line = (i: number) =>
      JSON.stringify({
        type: "message",
        id: `e${i}`,
        parentId: i ? `e${i - 1}` : null,
        timestamp: "2026-01-01T00:00:00.000Z",
        message: { role: "user", content: "x".repeat(100), timestamp: 1 },
      });
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" });
    writeFileSync(path.join(sessions, "--p--", "s.jsonl"), `${[header, ...Array.from({ length: 20 }, (_, i) => line(i))].join("\n")}\n`);
    const saved = process.env.PI_SESSIONS_DIR;
    process.env.PI_SESSIONS_DIR = sessions;
    try {
      const cache = path.join(root, "a-file");
      const response = await lightIndexResponse("--p--/s.jsonl", 1 << 30, cache);
      expect(response.status).toBe(200);
      expect(response.headers.get("x-light-index")).toBe("made");
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
      expect(statSync(cache).isFile()).toBe(true);
    } finally {
      process.env.PI_SESSIONS_DIR = saved;
    }
  });
});

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openKept, releaseKept } from "./kept-indexes";

let root: string;
beforeAll(() => (root = mkdtempSync(path.join(os.tmpdir(), "kept-indexes-"))));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

class Index {
  ino: number | null = null;
  closed = 0;
  close(): void {
    this.closed++;
  }
}

describe("openKept", () => {
  it("closes an index only once every user released it and it stayed idle", () => {
    vi.useFakeTimers();
    const file = path.join(root, "a.sqlite");
    const first = openKept(file, "s", () => new Index());
    const second = openKept(file, "s", () => new Index());
    expect(second).toBe(first);
    releaseKept(file, first);
    vi.advanceTimersByTime(10 * 60_000);
    expect(first.closed).toBe(0);
    releaseKept(file, second);
    vi.advanceTimersByTime(10 * 60_000);
    expect(first.closed).toBe(1);
    expect(openKept(file, "s", () => new Index())).not.toBe(first);
  });

  it("opens anew for other settings, or once the file it connected to was replaced", () => {
    const file = path.join(root, "b.sqlite");
    writeFileSync(file, "");
    const first = openKept(file, "s", () => new Index());
    const other = openKept(file, "t", () => new Index());
    expect(other).not.toBe(first);
    expect(first.closed).toBe(1);
    other.ino = 1;
    expect(openKept(file, "t", () => new Index())).not.toBe(other);
    expect(other.closed).toBe(1);
  });
});

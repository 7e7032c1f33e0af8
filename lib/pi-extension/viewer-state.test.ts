// /viewer's state (port and token) is the user's alone: 0600 in a 0700 folder the user owns, never read from or
// written to a place another user could have made or swapped.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readViewerState, removeViewerState, viewerStatePlace, writeViewerState, type StatePlace } from "./viewer-state";

const uid = process.getuid!();
const STATE = { port: 41234, token: "t".repeat(43), sessionsDir: "/home/u/.pi/agent/sessions", pid: 4321 };
let root: string;
let place: StatePlace;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "viewer-state-"));
  place = { dir: path.join(root, "pi-session-viewer"), uid };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const mode = (p: string) => lstatSync(p).mode & 0o777;

describe("viewer state", () => {
  it("lives in the user's runtime directory, else in pi's folder in the home", () => {
    expect(viewerStatePlace({ XDG_RUNTIME_DIR: "/run/user/1000" })).toEqual({ dir: "/run/user/1000/pi-session-viewer", uid });
    expect(viewerStatePlace({}).dir).toBe(path.join(os.homedir(), ".pi", "agent", "pi-session-viewer"));
  });

  it("is written 0600 in a 0700 folder, whole, and read back", () => {
    writeViewerState(place, STATE);
    expect(mode(place.dir)).toBe(0o700);
    expect(mode(path.join(place.dir, "viewer.json"))).toBe(0o600);
    expect(readdirSync(place.dir)).toEqual(["viewer.json"]); // no temporary file left beside it
    expect(readViewerState(place)).toEqual(STATE);
    writeViewerState(place, { ...STATE, port: 5 });
    expect(readViewerState(place)).toEqual({ ...STATE, port: 5 });
    removeViewerState(place);
    expect(readViewerState(place)).toBeNull();
  });

  it("closes a folder of ours that others could read", () => {
    mkdirSync(place.dir, { mode: 0o755 });
    chmodSync(place.dir, 0o755);
    writeViewerState(place, STATE);
    expect(mode(place.dir)).toBe(0o700);
  });

  it("refuses a folder another user owns, and a link in its place", () => {
    mkdirSync(place.dir);
    expect(() => writeViewerState({ ...place, uid: uid + 1 }, STATE)).toThrow(/belongs to another user/);
    rmSync(place.dir, { recursive: true });
    const elsewhere = path.join(root, "elsewhere");
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, place.dir);
    expect(() => writeViewerState(place, STATE)).toThrow(/not a directory/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("does not trust a state file others can read or write, another user's, a link, or a broken one", () => {
    writeViewerState(place, STATE);
    const file = path.join(place.dir, "viewer.json");
    chmodSync(file, 0o644);
    expect(readViewerState(place)).toBeNull();
    chmodSync(file, 0o600);
    expect(readViewerState({ ...place, uid: uid + 1 })).toBeNull();
    rmSync(file);
    const planted = path.join(root, "planted.json");
    writeFileSync(planted, JSON.stringify(STATE), { mode: 0o600 });
    symlinkSync(planted, file);
    expect(readViewerState(place)).toBeNull();
    rmSync(file);
    writeFileSync(file, "{half", { mode: 0o600 });
    expect(readViewerState(place)).toBeNull();
    writeFileSync(file, JSON.stringify({ ...STATE, token: 5 }), { mode: 0o600 });
    expect(readViewerState(place)).toBeNull();
  });
});

/**
 * Where /viewer keeps the viewer it started (port, token, pid) for the next pi to reuse: a file only its user can
 * read or write (0600, in a 0700 directory the user owns). It holds the token that opens every session, so a file
 * or folder another user owns, or could have swapped, is never read or written.
 */
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, chmodSync, constants, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface ViewerState {
  port: number;
  token: string;
  sessionsDir: string;
  pid: number;
}

export interface StatePlace {
  dir: string;
  /** the user who must own it: this process's (a parameter so that a test can play another user) */
  uid: number;
}

/** The user's runtime directory (a per-login tmpfs, 0700) when there is one, else pi's own folder in the home. */
export function viewerStatePlace(env: Record<string, string | undefined> = process.env): StatePlace {
  const base = env.XDG_RUNTIME_DIR || path.join(os.homedir(), ".pi", "agent");
  return { dir: path.join(base, "pi-session-viewer"), uid: process.getuid?.() ?? -1 };
}

/** Makes the directory (0700) or checks the one there: a real directory, ours, closed to others. */
function secureDir(place: StatePlace): void {
  mkdirSync(place.dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(place.dir);
  if (!stat.isDirectory()) throw new Error(`${place.dir} is not a directory (a link?): the viewer's token will not be kept there`);
  if (place.uid >= 0 && stat.uid !== place.uid)
    throw new Error(`${place.dir} belongs to another user (uid ${stat.uid}): the viewer's token will not be kept there`);
  if ((stat.mode & 0o077) !== 0) chmodSync(place.dir, 0o700);
}

const stateFile = (place: StatePlace) => path.join(place.dir, "viewer.json");

/** The state a viewer left, or null: none, unreadable, or not safely ours (then it is not trusted). */
export function readViewerState(place: StatePlace): ViewerState | null {
  let fd: number;
  try {
    fd = openSync(stateFile(place), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || (place.uid >= 0 && stat.uid !== place.uid) || (stat.mode & 0o077) !== 0 || stat.size > 64 * 1024) return null;
    const state = JSON.parse(readFileSync(fd, "utf8")) as Partial<ViewerState>;
    const valid = Number.isInteger(state.port) && typeof state.token === "string" && typeof state.sessionsDir === "string" && Number.isInteger(state.pid);
    return valid ? (state as ViewerState) : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Writes the state whole or not at all: a new 0600 file renamed over the old, so no reader sees half of it. */
export function writeViewerState(place: StatePlace, state: ViewerState): void {
  secureDir(place);
  const temporary = path.join(place.dir, `.viewer-${process.pid}-${Date.now()}.json`);
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, JSON.stringify(state));
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, stateFile(place));
}

export function removeViewerState(place: StatePlace): void {
  rmSync(stateFile(place), { force: true });
}

// What a load says when it fails, wherever it fails, and what becomes of a file that changes under the page: the
// store is told the file's name when the load starts, and the failure after it; once a session is shown, content
// that no longer matches the file is said so by file name and line when it is read.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Session } from "@/lib/session";
import type { SessionEntry } from "@/lib/session/types";
import type { LoadError } from "./parse-protocol";
import { bytesOf, lightIndexReplies, schemaReply, streamReplies, type LinesReply } from "./testing/parse-replies";
import { cutSession, libraryTarget, pageAt, serveRanges, settle, startLoad, until, uploadTarget, type Load } from "./testing/load-harness";

const text = cutSession("ff", 4);
const bytes = bytesOf(text);
const NAME = "2026-03-01T12-00-00-000Z_f.jsonl";
const library = () => libraryTarget(`--home-dev-load--/${NAME}`);

beforeEach(() => pageAt());
afterEach(() => vi.unstubAllGlobals());

/** The full content of entry `id`, read from wherever the session reads it. */
const content = (session: Session, id: string) => session.withContent(() => JSON.stringify(session.tree.full(session.tree.get(id) as SessionEntry)));

/** The load ended with `message` after the store was told the file's name, and nothing comes after it. */
async function expectFailed(load: Load, start: string, message: string): Promise<void> {
  expect(load.told[0]).toBe(start);
  expect(load.told.at(-1)).toBe(`fail ${message}`);
  expect(load.worker.terminated).toBe(true);
  const told = [...load.told];
  load.worker.send({ type: "end", last: "", done: 0, total: 0, complete: 0 });
  await settle();
  expect(load.told).toEqual(told);
  expect(load.loaded).toEqual([]);
}

describe("a failure while the file is read", () => {
  it.each<[string, LoadError, string]>([
    ["a missing file", { kind: "http", status: 404, message: "no such session file" }, "No such session file."],
    ["a refused path", { kind: "http", status: 403, message: "outside the sessions directory" }, "This path cannot be opened: outside the sessions directory."],
    ["a server error", { kind: "http", status: 500, message: "Internal Server Error" }, "The server answered 500: Internal Server Error."],
    ["the network", { kind: "network", message: "The file could not be fetched." }, "The file could not be fetched."],
    [
      "a light index cut short",
      { kind: "read", message: "The server's light index of this file ended early: open the file again." },
      "The server's light index of this file ended early: open the file again.",
    ],
  ])("%s: the worker's error, said for people", async (_, error, message) => {
    const load = startLoad(library());
    load.worker.send(...lightIndexReplies(bytes).replies.slice(0, 2));
    load.worker.send({ type: "error", error });
    await expectFailed(load, `start server ${NAME} 0`, message);
  });

  it("the worker itself fails: the file could not be read", async () => {
    const load = startLoad(library());
    load.worker.crash("out of memory");
    await expectFailed(load, `start server ${NAME} 0`, "The file could not be read: out of memory.");
    const silent = startLoad(library());
    silent.worker.crash("");
    await expectFailed(silent, `start server ${NAME} 0`, "The file could not be read: the reader stopped.");
  });

  it("a page opened from disk cannot read the picked file", async () => {
    pageAt("file:///home/dev/viewer.html");
    const file = new File([bytes], "gone.jsonl");
    vi.spyOn(file, "arrayBuffer").mockRejectedValue(new Error("NotReadableError"));
    const load = startLoad(uploadTarget(file));
    await until(() => load.told.length > 1);
    await expectFailed(load, `start upload gone.jsonl ${bytes.length}`, "The file could not be read: NotReadableError");
  });

  it("a reply the page cannot index (a bug): shown, not swallowed", async () => {
    const load = startLoad(library());
    const [lines] = streamReplies(bytes, 4096) as LinesReply[];
    load.worker.send({ ...lines!, kept: true, light: undefined as unknown as Uint8Array });
    expect(load.told.at(-1)).toMatch(/^fail The session could not be indexed: /);
    await expectFailed(load, `start server ${NAME} 0`, load.told.at(-1)!.slice("fail ".length));
  });
});

describe("a failure while the index is finished", () => {
  it("a session without entries, waiting for its notes, whose worker fails", async () => {
    const header = `${text.split("\n")[0]}\n`;
    const load = startLoad(uploadTarget(new File([header], "empty.jsonl")));
    load.worker.send(...streamReplies(bytesOf(header), 4096));
    await settle();
    load.worker.crash("the check failed");
    await expectFailed(load, `start upload empty.jsonl ${header.length}`, "The file could not be read: the check failed.");
  });
});

describe("a failure once the session is shown", () => {
  it("its worker failing before the notes came: the session stays, without them", async () => {
    const load = startLoad(library());
    load.worker.send(...lightIndexReplies(bytes).replies);
    await until(() => load.shown.length > 0);
    load.worker.crash("the check failed");
    await settle();
    expect(load.told.some((t) => t.startsWith("fail"))).toBe(false);
    expect(load.worker.terminated).toBe(true);
    expect(load.shown[0]!.schemaPending).toBe(true);
  });

  it("shown before its lines came, whose worker fails: the session stays, and stops waiting for its lines", async () => {
    const { replies, frames } = lightIndexReplies(bytes, { snapshot: "kept" });
    serveRanges({ file: bytes, frames });
    const load = startLoad(library());
    load.worker.send(replies[0]!, replies[1]!);
    await until(() => load.shown.length > 0);
    const session = load.shown[0]!;
    expect(session.tree.textComing).toBe(true);
    let came = false;
    void session.tree.textCame().then(() => (came = true));
    load.worker.crash("the stream broke");
    await settle();
    expect(came).toBe(true);
    expect(load.told.some((t) => t.startsWith("fail"))).toBe(false);
    expect(load.worker.terminated).toBe(true);
    expect(load.loaded).toEqual([]);
  });

  it("shown before its lines came, whose light index then ends early: the load fails, as the worker says", async () => {
    const { replies, frames } = lightIndexReplies(bytes, { snapshot: "kept" });
    serveRanges({ file: bytes, frames });
    const load = startLoad(library());
    load.worker.send(replies[0]!, replies[1]!);
    await until(() => load.shown.length > 0);
    const message = "The server's light index of this file ended early: open the file again.";
    load.worker.send({ type: "error", error: { kind: "read", message } });
    await expectFailed(load, `start server ${NAME} 0`, message);
  });
});

describe("a file that changes while it is open", () => {
  it("a library file replaced with other entries: reading content says so, by file name and line; the store hears no failure", async () => {
    const served = { file: bytes };
    serveRanges(served);
    const load = startLoad(library());
    const { replies } = lightIndexReplies(bytes);
    load.worker.send(...replies, schemaReply(replies));
    await until(() => load.worker.terminated);
    const other = bytesOf(cutSession("gg", 4));
    expect(other.length).toBe(bytes.length);
    served.file = other;
    await expect(content(load.shown[0]!, "ff000002")).rejects.toThrow(
      `${NAME}: line 3 no longer holds entry ff000002: the file changed since it was opened; open it again`,
    );
    expect(load.told.some((t) => t.startsWith("fail"))).toBe(false);
  });

  it("a library file pi appended to: the lines read are where they were, and read", async () => {
    const served = { file: bytes };
    serveRanges(served);
    const load = startLoad(library());
    const { replies } = lightIndexReplies(bytes);
    load.worker.send(...replies, schemaReply(replies));
    await until(() => load.worker.terminated);
    served.file = bytesOf(`${text}${cutSession("hh", 2).split("\n").slice(1).join("\n")}`);
    expect(await content(load.shown[0]!, "ff000004")).toContain("MARKff000004");
  });

  it("a library file cut short: reading content says the file is not what was read, by name", async () => {
    const served = { file: bytes };
    serveRanges(served);
    const load = startLoad(library());
    const { replies } = lightIndexReplies(bytes);
    load.worker.send(...replies, schemaReply(replies));
    await until(() => load.worker.terminated);
    served.file = bytes.slice(0, bytes.length - 100);
    await expect(content(load.shown[0]!, "ff000004")).rejects.toThrow(new RegExp(`^${NAME} is not what was read: .*\\(the file was cut or replaced\\)$`));
  });

  it("a picked file changed on disk: the browser refuses to read it again, and the page says to open it again", async () => {
    const file = new File([bytes], "picked.jsonl");
    const load = startLoad(uploadTarget(file));
    const replies = streamReplies(bytes, 4096);
    load.worker.send(...replies, schemaReply(replies));
    await until(() => load.worker.terminated);
    vi.spyOn(file, "slice").mockImplementation(() => {
      const moved = new Blob([]);
      vi.spyOn(moved, "arrayBuffer").mockRejectedValue(new Error("NotReadableError"));
      return moved;
    });
    await expect(content(load.shown[0]!, "ff000001")).rejects.toThrow("the file changed or moved since it was opened; open it again.");
  });

  it("a reopened library file whose kept index was replaced before it was shown: shown all the same, its lines read as they come", async () => {
    const { replies, frames } = lightIndexReplies(bytes, { snapshot: "kept" });
    const { ranges } = serveRanges({ file: bytes, frames, framesGone: true });
    const load = startLoad(library());
    load.worker.send(replies[0]!, replies[1]!);
    await until(() => load.shown.length > 0);
    expect(ranges.some((r) => r.startsWith("/api/sessions/light#index"))).toBe(true);
    load.worker.send(...replies.slice(2));
    await until(() => load.loaded.length > 0);
    expect(await content(load.shown[0]!, "ff000003")).toContain("MARKff000003");
    expect(load.told.some((t) => t.startsWith("fail"))).toBe(false);
  });
});

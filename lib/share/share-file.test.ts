import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileRedaction } from "@/lib/export/redaction-rules";
import { parseSessionText, Session } from "@/lib/session";
import { listFixtures } from "@/lib/session/testing/golden";
import { ShareManifestError } from "./manifest";
import { collect, gunzipped, gzip, unpackShare, unpackShareStream } from "./pack";
import { lineRedactor } from "./redactor";
import { unseal, unsealedStream, WrongSecretError } from "./seal";
import { makeShareFile, type ShareFileOptions } from "./share-file";
import { extractShare } from "./share-html";

// the real page is built by scripts/build-viewer.mjs (the e2e opens it); the writer only needs its data block
const TEMPLATE = '<!doctype html><title>pi session viewer</title><script type="application/octet-stream" id="pi-share"></script><script>app()</script>';

const open = (text: string) => new Session(parseSessionText(text));

async function readBack(html: string, secret?: { password: string } | { key: string }) {
  const payload = extractShare(html);
  expect(payload).not.toBeNull();
  return unpackShare(await unseal(payload!, secret));
}

const base: ShareFileOptions = { scope: "session", entryId: null, tab: null, protection: { kind: "none" } };

describe("share file round trip", () => {
  const fixtures = listFixtures();

  it.each(fixtures.map((f) => [f.name, f.file]))("%s: the session read back is the source, byte for byte", async (_name, file) => {
    const text = readFileSync(file, "utf8");
    const share = await makeShareFile(TEMPLATE, open(text), text, "x.jsonl", base);
    const back = await readBack(share.html);
    expect(back.text).toBe(text);
    expect(back.manifest).toEqual(share.manifest);
    expect(back.manifest.bytes).toBe(new TextEncoder().encode(text).byteLength);
  });

  it("fork scope carries exactly the fork pi writes, and path scope the header and the root path", async () => {
    const file = fixtures.find((f) => f.name === "ca-labels")!.file;
    const text = readFileSync(file, "utf8");
    const session = open(text);
    const entry = session.tree.entries[Math.floor(session.tree.entries.length / 2)]!.id as string;
    const fork = await makeShareFile(TEMPLATE, session, text, "s.jsonl", { ...base, scope: "fork", entryId: entry, sourcePath: "/x/s.jsonl" });
    const forkBack = await readBack(fork.html);
    const expected = session.fork(entry, { sourcePath: "/x/s.jsonl" });
    // the fork's new session id and label ids are fresh each time: compare all but those
    const strip = (t: string) =>
      t
        .split("\n")
        .filter(Boolean)
        .map((l) => {
          const v = JSON.parse(l);
          delete v.id;
          delete v.timestamp;
          if (v.type === "label") delete v.parentId;
          return v;
        });
    expect(strip(forkBack.text)).toEqual(strip(expected.text));
    expect(forkBack.manifest.fileName).toMatch(/\.jsonl$/);
    const reread = open(forkBack.text);
    expect(reread.leafId).not.toBeNull();
    expect(reread.branch(entry).map((e) => e.id)).toEqual(
      session
        .branch(entry)
        .map((e) => e.id)
        .filter((id) => session.tree.get(id)!.type !== "label"),
    );

    const path = await makeShareFile(TEMPLATE, session, text, "s.jsonl", { ...base, scope: "path", entryId: entry });
    const pathBack = open((await readBack(path.html)).text);
    expect(pathBack.header).toEqual(session.header);
    expect(pathBack.tree.entries.map((e) => e.id)).toEqual(session.branch(entry).map((e) => e.id));
    expect(pathBack.leafId).toBe(entry);
  });

  it("redacted: the secrets are gone from the data, the record has names and counts only, ids and parents stay", async () => {
    const token = ["ghp", "_", "A1b2C3d4E5f6G7h8J9k0".repeat(2)].join("");
    const lines = [
      { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/home/ann/acme-project" },
      {
        type: "message",
        id: "a1",
        parentId: null,
        timestamp: "2026-01-01T00:00:01.000Z",
        message: { role: "user", content: `deploy for Acme Corp with ${token}`, timestamp: 1 },
      },
      {
        type: "message",
        id: "a2",
        parentId: "a1",
        timestamp: "2026-01-01T00:00:02.000Z",
        message: {
          role: "assistant",
          content: [{ type: "text", text: "reading /home/ann/acme-project/db.internal.acme" }],
          api: "x",
          provider: "p",
          model: "m",
          usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
          stopReason: "stop",
          timestamp: 2,
        },
      },
    ];
    const text = lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
    const rules = compileRedaction({ builtIn: true, literals: ["Acme Corp"], regexes: ["db\\.internal\\.[a-z]+"], homePaths: true });
    if ("errors" in rules) throw new Error("rules");
    const redactor = lineRedactor(rules);
    const share = await makeShareFile(TEMPLATE, open(text), text, "s.jsonl", {
      ...base,
      redactor,
      record: redactor.record,
      protection: { kind: "password", password: "pw" },
    });
    await expect(readBack(share.html)).rejects.toBeInstanceOf(WrongSecretError);
    const back = await readBack(share.html, { password: "pw" });
    for (const secret of [token, "Acme Corp", "db.internal.acme", "/home/ann"]) {
      expect(back.text).not.toContain(secret);
      expect(JSON.stringify(back.manifest)).not.toContain(secret);
      expect(share.html).not.toContain(secret);
    }
    expect(back.text).toContain("[REDACTED:github-token]");
    expect(back.text).toContain("[REDACTED:literal-1]");
    expect(back.text).toContain("[REDACTED:regex-1]");
    expect(back.text).toContain("~/acme-project");
    const counts = Object.fromEntries(back.manifest.redaction!.rules.filter((r) => r.count > 0).map((r) => [r.name, r.count]));
    expect(counts).toEqual({ "github-token": 1, "literal-1": 1, "regex-1": 1, "home-path": 2 });
    const reread = open(back.text);
    expect(reread.tree.entries.map((e) => [e.id, e.parentId])).toEqual([
      ["a1", null],
      ["a2", "a1"],
    ]);
    // a sealed file's title says nothing of what it holds
    expect(share.html).toContain("<title>pi session viewer</title>");
  });

  it("a random key opens it; another key does not", async () => {
    const text = readFileSync(fixtures.find((f) => f.name === "ca-tiny")!.file, "utf8");
    const share = await makeShareFile(TEMPLATE, open(text), text, "t.jsonl", { ...base, protection: { kind: "key" } });
    expect(share.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await readBack(share.html, { key: share.key! })).text).toBe(text);
    await expect(readBack(share.html, { key: "A".repeat(43) })).rejects.toBeInstanceOf(WrongSecretError);
  });

  it("dropping images replaces each with a note and says how much it saved", async () => {
    const data = "iVBORw0KGgo".repeat(300);
    const lines = [
      { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" },
      {
        type: "message",
        id: "a1",
        parentId: null,
        timestamp: "2026-01-01T00:00:01.000Z",
        message: {
          role: "user",
          content: [
            { type: "text", text: "see" },
            { type: "image", data, mimeType: "image/png" },
          ],
          timestamp: 1,
        },
      },
    ];
    const text = lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
    const share = await makeShareFile(TEMPLATE, open(text), text, "s.jsonl", { ...base, dropImages: true });
    const back = await readBack(share.html);
    expect(back.text).not.toContain(data);
    expect(back.manifest.images).toEqual({ dropped: 1, bytes: data.length });
    const content = (open(back.text).tree.full(open(back.text).tree.entries[0]!).message as { content: unknown[] }).content;
    expect(content[1]).toEqual({ type: "text", text: expect.stringMatching(/^\[image removed from the shared file: image\/png, \d+ KiB\]$/) });
  });

  it("a session name of any length still makes a manifest the viewer reads", async () => {
    const lines = [
      { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" },
      { type: "session_info", id: "n1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", name: "long name ".repeat(500) },
    ];
    const text = lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
    const back = await readBack((await makeShareFile(TEMPLATE, open(text), text, "s.jsonl", base)).html);
    expect(back.manifest.title!.length).toBeLessThanOrEqual(200);
    expect(back.text).toBe(text);
  });

  it.each([
    ["$`", "$`"],
    ["$'", "$'"],
    ["$&", "$&amp;"],
    ["$$", "$$"],
    ["$1", "$1"],
  ])("a title holding %s is written into <title> as it is, and the file still opens", async (pattern, escaped) => {
    const name = `cost ${pattern} <b> & more`;
    const lines = [
      { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" },
      { type: "session_info", id: "n1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", name },
    ];
    const text = lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
    const { html } = await makeShareFile(TEMPLATE, open(text), text, "s.jsonl", base);
    expect(html.match(/<title>[^]*?<\/title>/g)).toEqual([`<title>cost ${escaped} &lt;b&gt; &amp; more · pi session viewer</title>`]);
    expect(html.split('id="pi-share"')).toHaveLength(2);
    const back = await readBack(html);
    expect(back.text).toBe(text);
    expect(back.manifest.title).toBe(name);
  });

  it("an unlocked share streams piece by piece to the same session, and damage fails the gzip check", async () => {
    const text = readFileSync(fixtures.find((f) => f.name === "ca-large")!.file, "utf8");
    const payload = extractShare((await makeShareFile(TEMPLATE, open(text), text, "l.jsonl", base)).html)!;
    const streamed = await unpackShareStream(gunzipped(unsealedStream(payload, 4096)));
    expect(new TextDecoder().decode(await collect(streamed.session))).toBe(text);
    // one changed base64 character in the middle of the body
    const at = payload.length - Math.floor(payload.length / 3);
    const damaged = payload.slice(0, at) + (payload[at] === "A" ? "B" : "A") + payload.slice(at + 1);
    const opened = unpackShareStream(gunzipped(unsealedStream(damaged, 4096)));
    await expect(opened.then((o) => collect(o.session))).rejects.toThrow();
    expect(() => unsealedStream("pishare1.e30.AAAA")).toThrow();
  });

  it("data without a manifest line is refused with a clear error", async () => {
    await expect(unpackShare(await gzip(new TextEncoder().encode('{"type":"session"}\n')))).rejects.toThrow(ShareManifestError);
    await expect(unpackShare(await gzip(new TextEncoder().encode("no newline")))).rejects.toThrow(/ends before its manifest/);
  });
});

import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCatalogue, modelOfContext } from "@/lib/models/model-catalogue";
import { Session } from "@/lib/session";
import { FIXTURES_DIR } from "@/lib/session/testing/golden";
import { loadBranchSummary, loadCompaction, loadProjection, moduleUrl } from "@/lib/session/testing/oracle";
import { unpackShare } from "@/lib/share/pack";
import { unseal } from "@/lib/share/seal";
import { extractShare } from "@/lib/share/share-html";

const ROOT = path.resolve(__dirname, "../..");

function cli(...args: string[]) {
  return cliWith({}, ...args);
}

function cliWith(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "lib/cli/main.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const fx = (name: string) => path.join(FIXTURES_DIR, `${name}.jsonl`);
const golden = (name: string) => JSON.parse(readFileSync(path.join(FIXTURES_DIR, "golden", `${name}.golden.json`), "utf8"));
const tmp = mkdtempSync(path.join(os.tmpdir(), "pi-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("cli", () => {
  it("info: header, name, entry count, leaf, labels", () => {
    const g = golden("ca-branching-a").codingAgent;
    const r = cli("info", fx("ca-branching-a"));
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.header).toEqual(g.load.header);
    expect(info.name).toBe(g.load.sessionName);
    expect(info.entryCount).toBe(g.load.entryCount);
    expect(info.leafId).toBe(g.load.fileLeafId);
    expect(info.labels).toEqual(g.labels);
  });

  it("info: leafId null for a header-only file", () => {
    const info = JSON.parse(cli("info", fx("edge-header-only")).stdout);
    expect(info.leafId).toBeNull();
    expect(info.entryCount).toBe(0);
  });

  it("branch and context match pi's goldens", () => {
    const g = golden("ca-compaction-a").codingAgent;
    const [id, record] = Object.entries<{ path: string[]; context: string[]; messageCount: number; thinkingLevel: string; model: unknown }>(g.leaves).find(
      ([, r]) => r.context && r.context.length < r.path.length,
    )!;
    const branch = cli("branch", fx("ca-compaction-a"), "--leaf", id);
    expect(JSON.parse(branch.stdout)).toEqual(record.path);
    const context = JSON.parse(cli("context", fx("ca-compaction-a"), "--leaf", id).stdout);
    expect(context.entryIds).toEqual(record.context);
    expect(context.messages.length).toBe(record.messageCount);
    expect(context.thinkingLevel).toBe(record.thinkingLevel);
    expect(context.model).toEqual(record.model);
  });

  it("context without --leaf uses the file's leaf; --leaf null is the empty context", () => {
    const g = golden("ca-tiny").codingAgent;
    expect(JSON.parse(cli("context", fx("ca-tiny")).stdout).entryIds).toEqual(g.fileLeaf.context);
    expect(JSON.parse(cli("context", fx("ca-tiny"), "--leaf", "null").stdout)).toEqual({ entryIds: [], messages: [], model: null, thinkingLevel: "off" });
  });

  it("llm: pi's convertToLlm and token estimate at the leaf, the window from pi's catalogue, and whether pi would compact", async () => {
    const pi = await loadProjection("@earendil-works/pi-coding-agent", "coding-agent");
    const session = Session.fromText(readFileSync(fx("ca-compaction-a"), "utf8"));
    const piMessages = session.context(session.leafId).messages.map((m) => m.message);
    const r = cli("llm", fx("ca-compaction-a"), "--json");
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.messages).toEqual(JSON.parse(JSON.stringify(pi.convertToLlm(piMessages))));
    const estimate = pi.estimateContextTokens(piMessages) as { tokens: number; usageTokens: number; trailingTokens: number; lastUsageIndex: number | null };
    expect(out.tokens).toEqual({
      usage: estimate.usageTokens,
      trailing: estimate.trailingTokens,
      total: estimate.tokens,
      lastUsageIndex: estimate.lastUsageIndex,
    });
    const model = session.context(session.leafId).model!;
    const known = modelOfContext(await loadCatalogue(), model)!;
    expect(out.contextWindow).toBe(known.contextWindow);
    expect(out.shouldCompact).toBe(estimate.tokens > known.contextWindow - 16384);
    // a window small enough puts the same context over pi's threshold
    const small = JSON.parse(cli("llm", fx("ca-compaction-a"), "--window", String(estimate.tokens + 100)).stdout);
    expect(small.shouldCompact).toBe(true);
    expect(JSON.parse(cli("llm", fx("ca-compaction-a"), "--window", String(estimate.tokens + 100), "--reserve", "50").stdout).shouldCompact).toBe(false);
    expect(cli("llm", fx("ca-compaction-a"), "--reserve", "lots").stderr).toMatch(/--reserve takes a whole number of tokens/);
  });

  it("branch-summary: pi's collectEntriesForBranchSummary and prepareBranchEntries within pi's budget", async () => {
    const pi = await loadBranchSummary("@earendil-works/pi-coding-agent", "coding-agent");
    const session = Session.fromText(readFileSync(fx("ca-branching-a"), "utf8"));
    const leaf = session.leafId!;
    // an entry on another branch than the leaf's
    const onPath = new Set(session.branch(leaf).map((e) => e.id));
    const target = session.tree.entries.find((e) => !onPath.has(e.id as string))!.id as string;
    const r = cli("branch-summary", fx("ca-branching-a"), "--from", leaf, "--to", target, "--json");
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    // pi's own SessionManager on a copy (it may rewrite a file it opens)
    const copy = path.join(tmp, "branch-summary.jsonl");
    copyFileSync(fx("ca-branching-a"), copy);
    const { SessionManager } = (await import(moduleUrl("@earendil-works/pi-coding-agent/dist/core/session-manager.js"))) as {
      SessionManager: { open(file: string, dir: string): unknown };
    };
    const sm = SessionManager.open(copy, tmp);
    const collected = pi.collectEntriesForBranchSummary(sm, leaf, target) as { entries: { id: string }[]; commonAncestorId: string | null };
    expect(out.entryIds).toEqual(collected.entries.map((e) => e.id));
    expect(out.commonAncestorId).toBe(collected.commonAncestorId);
    expect(out.entryIds.length).toBeGreaterThan(0);
    // the model at the leaf is one pi's catalogue lists only in an older release: its window, less pi's 16,384
    const known = modelOfContext(await loadCatalogue(), session.context(leaf).model);
    expect(out.budget).toBe((known?.contextWindow ?? 128000) - 16384);
    const prepared = pi.prepareBranchEntries(collected.entries, out.budget);
    expect(out.tokens).toBe(prepared.totalTokens);
    expect(out.messages).toEqual(JSON.parse(JSON.stringify(prepared.messages)));
    const tight = JSON.parse(cli("branch-summary", fx("ca-branching-a"), "--from", leaf, "--to", target, "--budget", "50").stdout);
    expect(tight.tokens).toBe(pi.prepareBranchEntries(collected.entries, 50).totalTokens);
    expect(cli("branch-summary", fx("ca-branching-a"), "--to", target).stderr).toMatch(/needs --from/);
  });

  it("compaction: pi's prepareCompaction at the leaf, or null where pi prepares nothing", async () => {
    const pi = await loadCompaction("@earendil-works/pi-coding-agent", "coding-agent");
    const copy = path.join(tmp, "compaction.jsonl");
    copyFileSync(fx("ca-compaction-a"), copy);
    const { SessionManager } = (await import(moduleUrl("@earendil-works/pi-coding-agent/dist/core/session-manager.js"))) as {
      SessionManager: { open(file: string, dir: string): { getBranch(): unknown[] } };
    };
    const piPath = SessionManager.open(copy, tmp).getBranch();
    for (const keep of [100, 20000]) {
      const r = cli("compaction", fx("ca-compaction-a"), "--keep", String(keep), "--json");
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      const theirs = pi.prepareCompaction(piPath, { enabled: true, reserveTokens: 16384, keepRecentTokens: keep }) as
        { firstKeptEntryId: string; isSplitTurn: boolean; tokensBefore: number; messagesToSummarize: unknown[]; fileOps: unknown } | undefined;
      if (!theirs) {
        expect(out).toBeNull();
        continue;
      }
      expect(out.firstKeptEntryId).toBe(theirs.firstKeptEntryId);
      expect(out.isSplitTurn).toBe(theirs.isSplitTurn);
      expect(out.tokensBefore).toBe(theirs.tokensBefore);
      expect(out.summarizeIds.length).toBe(theirs.messagesToSummarize.length);
      const files = pi.computeFileLists(theirs.fileOps);
      expect([out.readFiles, out.modifiedFiles]).toEqual([files.readFiles, files.modifiedFiles]);
    }
    expect(JSON.parse(cli("compaction", fx("ca-compaction-a"), "--keep", "100").stdout)).not.toBeNull();
  });

  it("fork of a harness file: the harness's repo.fork by default (at, or before a user message), the coding agent's with --fork ca", () => {
    const g = golden("hx-retained-a");
    const [id, record] = Object.entries(g.harness.forks as Record<string, { at?: { entries?: string[] }; before?: { entries?: string[] } }>).find(
      ([, r]) => r.at?.entries && r.before?.entries?.length,
    )!;
    const ids = (out: string) =>
      out
        .split("\n")
        .filter(Boolean)
        .slice(1)
        .map((l) => JSON.parse(l).id as string);
    const at = cli("fork", fx("hx-retained-a"), "--leaf", id);
    expect(at.code, at.stderr).toBe(0);
    expect(ids(at.stdout)).toEqual(record.at!.entries);
    expect(ids(cli("fork", fx("hx-retained-a"), "--leaf", id, "--position", "before").stdout)).toEqual(record.before!.entries);
    const ca = cli("fork", fx("hx-retained-a"), "--leaf", id, "--fork", "ca");
    const caRecord = g.codingAgent.forks[id] as { entries?: (string | { modified: { id: string } })[] };
    expect(ids(ca.stdout).slice(0, caRecord.entries!.length)).toEqual(caRecord.entries!.map((e) => (typeof e === "string" ? e : e.modified.id)));
    expect(cli("fork", fx("ca-tiny"), "--leaf", "x", "--position", "before", "--fork", "ca").stderr).toMatch(
      /--position before is the harness's fork|no entry/,
    );
  });

  it("fork writes pi's file into a directory, named like pi names it", () => {
    const g = golden("ca-labels").codingAgent;
    const [id, record] = Object.entries<{ entries: string[]; labels: unknown[] }>(g.forks).find(([, r]) => r.labels.length > 0)!;
    const r = cli("fork", fx("ca-labels"), "--leaf", id, "-o", tmp);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    const [file] = readdirSync(tmp);
    expect(file).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f-]{36}\.jsonl$/);
    const lines = readFileSync(path.join(tmp, file!), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0].parentSession).toBe(fx("ca-labels"));
    expect(`${lines[0].timestamp.replace(/[:.]/g, "-")}_${lines[0].id}.jsonl`).toBe(file);
    expect(lines.slice(1, 1 + record.entries.length).map((e) => e.id)).toEqual(record.entries);
    expect(lines.length).toBe(1 + record.entries.length + record.labels.length);
  });

  it("fork to stdout prints the JSONL", () => {
    const r = cli("fork", fx("ca-tiny"), "--leaf", "89a718ee");
    const lines = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id).slice(1)).toEqual(golden("ca-tiny").codingAgent.forks["89a718ee"].entries);
  });

  it.each([
    ["edge-bom", ["info"], "edge-bom.jsonl:1:"],
    ["edge-headerless", ["context"], "edge-headerless.jsonl:1:"],
    ["edge-header-no-id", ["branch", "--leaf", "a1"], "edge-header-no-id.jsonl:1:"],
    ["edge-cycle-at-leaf", ["context"], "edge-cycle-at-leaf.jsonl:"],
    ["edge-message-without-message", ["context"], "edge-message-without-message.jsonl:4:"],
    ["ca-tiny", ["branch", "--leaf", "nope"], "no entry with id nope"],
    ["ca-tiny", ["fork", "--leaf", "null"], "Entry null not found"],
  ])("bad input %s %j: exit 1, file and line on stderr, nothing on stdout", (name, args, message) => {
    const [command, ...rest] = args;
    const r = cli(command!, fx(name), ...rest);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(message);
  });

  it("a missing file is named", () => {
    const r = cli("info", path.join(tmp, "missing.jsonl"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("missing.jsonl:0:");
  });

  describe("share", () => {
    const readShare = async (file: string, secret?: { password: string } | { key: string }) =>
      unpackShare(await unseal(extractShare(readFileSync(file, "utf8"))!, secret));

    it("writes one HTML file holding the viewer and the session, sealed with a random key printed as the link's #k=", async () => {
      const out = path.join(tmp, "tiny.html");
      const r = cli("share", fx("ca-tiny"), "-o", out, "--key", "--tab", "context");
      // a fresh checkout builds the viewer page on first use, and says so; nothing else may be said
      expect(r.stderr.replace("building the viewer page (public/viewer/share-template.html)…\n", "")).toBe("");
      expect(r.code).toBe(0);
      const told = JSON.parse(r.stdout);
      expect(told.file).toBe(out);
      expect(told.link).toBe(`file://${out}#k=${told.key}`);
      const html = readFileSync(out, "utf8");
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain('http-equiv="Content-Security-Policy"');
      expect(told.bytes.file).toBe(Buffer.byteLength(html));
      const back = await readShare(out, { key: told.key });
      expect(back.text).toBe(readFileSync(fx("ca-tiny"), "utf8"));
      expect(back.manifest).toMatchObject({ scope: "session", tab: "context", redaction: null });
    });

    it("masks what it is told to, seals with PI_SHARE_PASSWORD, and shares the fork at --leaf", async () => {
      const out = path.join(tmp, "fork.html");
      const g = golden("ca-labels").codingAgent;
      const [id, record] = Object.entries<{ entries: string[] }>(g.forks).find(([, r]) => r.entries.length > 2)!;
      const source = readFileSync(fx("ca-labels"), "utf8");
      const word = /"text":"([A-Za-z]{6,})/.exec(source)![1]!;
      const r = cliWith(
        { PI_SHARE_PASSWORD: "correct horse" },
        "share",
        fx("ca-labels"),
        "-o",
        out,
        "--scope",
        "fork",
        "--leaf",
        id,
        "--redact",
        "--redact-literal",
        word,
        "--password",
      );
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain(word);
      await expect(readShare(out, { password: "wrong" })).rejects.toThrow();
      const back = await readShare(out, { password: "correct horse" });
      expect(back.text).not.toContain(word);
      const lines = back.text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(lines.slice(1, 1 + record.entries.length).map((e) => e.id)).toEqual(record.entries);
      expect(back.manifest.redaction!.rules.find((rule) => rule.name === "literal-1")!.count).toBeGreaterThan(0);
      expect(JSON.stringify(back.manifest)).not.toContain(word);
    });

    it.each([
      [["--redact-regex", "(a+)+"], "regex-1:"],
      [["--scope", "path"], "Select an entry"],
      [["--scope", "everything"], "--scope must be"],
      [["--password", "--key"], "choose one"],
    ])("refuses %j with a clear message", (args, message) => {
      const r = cli("share", fx("edge-header-only"), "-o", path.join(tmp, "never.html"), ...args);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(message);
    });

    it("never writes over a file", () => {
      const out = path.join(tmp, "tiny.html");
      const r = cli("share", fx("ca-tiny"), "-o", out);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("already exists");
    });
  });

  describe("family", () => {
    const dir = path.join(ROOT, "e2e", "fixtures", "sessions");
    const rel = (name: string) => readdirSync(path.join(dir, name)).map((file) => `${name}/${file}`);

    it("gives the family from its first file down, with where each fork left its source, from any member", async () => {
      const { forkInfo, libraryFamilies } = await import("@/lib/server/library-families");
      const { findSessionFiles } = await import("@/lib/server/list-sessions");
      const library = await libraryFamilies(dir, await findSessionFiles(dir));
      const members = [...rel("--home-dev-projects-forks--"), ...rel("--home-dev-projects-forks-next--")];
      const root = members.find((file) => !library.families.sourceOf.has(file))!;
      const tree = async (file: string): Promise<unknown[]> =>
        Promise.all(
          [...(library.families.forksOf.get(file) ?? [])].map(async (fork) => ({
            file: fork,
            fromEntryId: (await forkInfo(library, fork))!.source!.fromEntryId,
            forks: await tree(fork),
          })),
        );
      const expected = { root, forks: await tree(root) };
      for (const member of members) {
        const r = cli("family", path.join(dir, member), "--dir", dir, "--json");
        expect(r.stderr).toBe("");
        expect(JSON.parse(r.stdout)).toEqual(expected);
      }
      expect(JSON.stringify(expected)).toContain("fromEntryId");
      expect((expected.forks as { forks: unknown[] }[]).some((f) => f.forks.length === 1)).toBe(true);
    });

    it("names a source the directory does not hold, and refuses a file outside it", () => {
      const file = path.join(
        dir,
        rel("--Users-sam-code-api-server--").find((f) => f.includes("019b97e6"))!,
      );
      const family = JSON.parse(cli("family", file, "--dir", dir).stdout);
      expect(family.forks).toEqual([]);
      expect(family.missingSource.path).toMatch(/019b8a11-5c3e-7d10-9a42-3f0c2b7e6d15\.jsonl$/);
      const outside = cli("family", fx("ca-tiny"), "--dir", dir);
      expect(outside.code).toBe(1);
      expect(outside.stdout).toBe("");
      expect(outside.stderr).toContain("not inside the sessions directory");
    });
  });

  describe("usage", () => {
    const dir = path.join(ROOT, "e2e", "fixtures", "sessions");

    it("gives rows by day, week, model, project, machine or session, as the library counts them", async () => {
      const { libraryUsage } = await import("@/lib/server/library-usage");
      const { findSessionFiles } = await import("@/lib/server/list-sessions");
      const files = await findSessionFiles(dir);
      const cacheRoot = mkdtempSync(path.join(os.tmpdir(), "usage-cache-"));
      const cache = mkdtempSync(path.join(os.tmpdir(), "usage-cli-cache-"));
      for (const by of ["day", "week", "model", "project", "machine", "session"] as const) {
        const r = cliWith({ PI_VIEWER_CACHE_DIR: cache }, "usage", "--dir", dir, "--by", by, "--json");
        expect(r.stderr).toBe("");
        const rows = JSON.parse(r.stdout);
        expect(rows).toEqual(JSON.parse(JSON.stringify(await libraryUsage(dir, files, by, null, { cacheRoot }))));
        for (const row of rows) for (const key of ["input", "output", "cacheRead", "cacheWrite", "cost"]) expect(typeof row[key]).toBe("number");
      }
      const since = JSON.parse(cliWith({ PI_VIEWER_CACHE_DIR: cache }, "usage", "--dir", dir, "--since", "2026-02-01", "--json").stdout);
      expect(since.map((row: { key: string }) => row.key)).toEqual(
        (await libraryUsage(dir, files, "day", null, { cacheRoot })).map((row) => row.key).filter((key) => key >= "2026-02-01"),
      );
      // the index sums by day: a time of day is refused rather than rounded
      const timed = cliWith({ PI_VIEWER_CACHE_DIR: cache }, "usage", "--dir", dir, "--since", "2026-02-01T12:00:00Z", "--json");
      expect(timed.code).toBe(1);
      expect(timed.stderr).toContain("--since takes a date (YYYY-MM-DD)");
    });

    it("prints a table with a total without --json, and refuses a bad grouping or date", () => {
      const table = cli("usage", "--dir", dir, "--by", "model");
      expect(table.code).toBe(0);
      expect(table.stdout.split("\n")[0]).toMatch(/^model\s+input\s+output\s+cache read\s+cache write\s+cost\s+calls$/);
      expect(table.stdout).toMatch(/\ntotal\s/);
      for (const [args, message] of [
        [["--by", "month"], "--by must be"],
        [["--since", "last week"], "--since takes a date"],
      ] as const) {
        const r = cli("usage", "--dir", dir, ...args);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(message);
      }
    });
  });

  describe("search", () => {
    const dir = path.join(ROOT, "e2e", "fixtures", "sessions");

    it("gives [{file, entryId, onActivePath, snippet, score}] as the library search finds them, and names lines it cannot read", async () => {
      const cache = mkdtempSync(path.join(tmp, "cache-"));
      const r = cliWith({ PI_VIEWER_CACHE_DIR: cache }, "search", "token bucket", "--dir", dir, "--json");
      expect(r.code).toBe(0);
      const hits = JSON.parse(r.stdout);
      const { searchLibrary } = await import("@/lib/server/library-search");
      const { findSessionFiles } = await import("@/lib/server/list-sessions");
      const expected = await searchLibrary(
        dir,
        await findSessionFiles(dir),
        "token bucket",
        {},
        { limit: 50, cacheRoot: mkdtempSync(path.join(tmp, "cache-")) },
      );
      expect(hits).toEqual(JSON.parse(JSON.stringify(expected.hits)));
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        expect(Object.keys(hit).sort()).toEqual(["alsoIn", "entryId", "file", "onActivePath", "role", "score", "snippet", "time"]);
        expect(hit.snippet.toLowerCase()).toMatch(/token|bucket/);
      }
      // the malformed line of edge-malformed-line, by file and line, each time it is asked
      for (const run of [r, cliWith({ PI_VIEWER_CACHE_DIR: cache }, "search", "token", "--dir", dir, "--json")])
        expect(run.stderr).toMatch(
          /--home-dev-projects-edge--\/2026-02-02T10-00-00-000Z_0199f0aa-1111-7222-8333-444455556666\.jsonl:\d+: warning: not indexed/,
        );
    });

    it("refuses an empty query", () => {
      const r = cli("search", "--dir", dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("search needs a QUERY");
    });
  });
});

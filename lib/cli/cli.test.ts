import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES_DIR } from "@/lib/session/testing/golden";

const ROOT = path.resolve(__dirname, "../..");

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "lib/cli/main.ts", ...args], { cwd: ROOT, encoding: "utf8" });
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
    const [id, record] = Object.entries<{ path: string[]; context: string[]; messageCount: number; thinkingLevel: string; model: unknown }>(g.leaves).find(([, r]) => r.context && r.context.length < r.path.length)!;
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

  it("fork writes pi's file into a directory, named like pi names it", () => {
    const g = golden("ca-labels").codingAgent;
    const [id, record] = Object.entries<{ entries: string[]; labels: unknown[] }>(g.forks).find(([, r]) => r.labels.length > 0)!;
    const r = cli("fork", fx("ca-labels"), "--leaf", id, "-o", tmp);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    const [file] = readdirSync(tmp);
    expect(file).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f-]{36}\.jsonl$/);
    const lines = readFileSync(path.join(tmp, file!), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines[0].parentSession).toBe(fx("ca-labels"));
    expect(`${lines[0].timestamp.replace(/[:.]/g, "-")}_${lines[0].id}.jsonl`).toBe(file);
    expect(lines.slice(1, 1 + record.entries.length).map((e) => e.id)).toEqual(record.entries);
    expect(lines.length).toBe(1 + record.entries.length + record.labels.length);
  });

  it("fork to stdout prints the JSONL", () => {
    const r = cli("fork", fx("ca-tiny"), "--leaf", "89a718ee");
    const lines = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
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
});

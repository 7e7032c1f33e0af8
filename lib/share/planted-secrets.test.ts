// An attacker's check of a redacted share: a session holding a key of a built-in shape and a home directory in
// every place a string can sit (each entry type's values and keys at any depth, the header, labels, names,
// thinking, tool details, extension data, a duplicate key, a line that is not JSON, the file's own name and
// folder), shared by the CLI's own function with the built-in rules and home paths on, then read back from
// the file: none of them may be anywhere in it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultShareArgs, runShare, type ShareArgs } from "@/lib/cli/share-command";
import { Session } from "@/lib/session";
import type { ShareScope } from "./manifest";
import { unpackShare } from "./pack";
import { unseal } from "./seal";
import { extractShare } from "./share-html";
import { PNG, plantedSession } from "./testing/planted-session";

const TEMPLATE = '<!doctype html><title>pi session viewer</title><script type="application/octet-stream" id="pi-share"></script>';

/** Each line that parses written again from its value (a key spelled with `\u` escapes reads plainly), beside those that do not. */
function parsedText(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      try {
        return JSON.stringify(JSON.parse(line));
      } catch {
        return line;
      }
    })
    .join("\n");
}

const tmp = mkdtempSync(path.join(os.tmpdir(), "pi-planted-"));
let template: string | undefined;
beforeAll(() => {
  template = process.env.PI_VIEWER_SHARE_TEMPLATE;
  process.env.PI_VIEWER_SHARE_TEMPLATE = path.join(tmp, "template.html");
  writeFileSync(process.env.PI_VIEWER_SHARE_TEMPLATE, TEMPLATE);
});
afterAll(() => {
  if (template === undefined) delete process.env.PI_VIEWER_SHARE_TEMPLATE;
  else process.env.PI_VIEWER_SHARE_TEMPLATE = template;
  rmSync(tmp, { recursive: true, force: true });
});

const { text: source, planted, plant } = plantedSession();
// the file's folder is pi's name for a home directory, its name a key: the manifest and a fork's parentSession say both
const folder = plant("the session file's folder and name");
const file = path.join(tmp, `--home-${folder.user}-proj--`, `${folder.token}.jsonl`);
mkdirSync(path.dirname(file));
writeFileSync(file, source);

let outputs = 0;
async function share(args: ShareArgs, leaf?: string) {
  const out = path.join(tmp, `out-${outputs++}.html`);
  const told = await runShare({
    file,
    session: Session.fromText(source),
    leaf,
    out,
    args,
    fail: (message) => {
      throw new Error(message);
    },
  });
  const html = readFileSync(out, "utf8");
  const back = await unpackShare(await unseal(extractShare(html)!));
  return { told, html, back };
}

const redacting = (scope: ShareScope): ShareArgs => ({ ...defaultShareArgs(), scope, builtIn: true, homePaths: true });

describe("a share with the built-in rules and home paths on", () => {
  it("starts from a session that holds every planted secret, in every place", () => {
    expect(planted.length).toBeGreaterThan(50);
    const readable = source + parsedText(source);
    for (const p of planted.filter((p) => p !== folder)) {
      expect(readable, p.where).toContain(p.token);
      expect(readable, p.where).toContain(p.user);
    }
    // the duplicate key's first value is in the bytes, and in no parsed value
    const duplicate = planted.find((p) => p.where === "duplicate key's first value")!;
    expect(JSON.stringify(JSON.parse(source.split("\n").at(-3)!))).not.toContain(duplicate.token);
  });

  const leafOf = () => Session.fromText(source).leafId!;

  it.each<[ShareScope, () => string | undefined]>([
    ["session", () => undefined],
    ["fork", leafOf],
    ["path", leafOf],
  ])("%s scope: no planted key or home directory is anywhere in the file", async (scope, leaf) => {
    const { told, html, back } = await share(redacting(scope), leaf());
    const places = {
      "the file": html,
      "the data's bytes": back.text,
      "the data's parsed strings": parsedText(back.text),
      "the manifest": JSON.stringify(back.manifest),
      "the CLI's report": told,
    };
    // every leak named at once: which place, what of it, where in the output
    const leaks = planted.flatMap((p) =>
      Object.entries(places).flatMap(([name, text]) => [
        ...(text.includes(p.token) ? [`${p.where}: its key, in ${name}`] : []),
        ...(text.includes(p.user) ? [`${p.where}: its user, in ${name}`] : []),
      ]),
    );
    expect(leaks).toEqual([]);
    expect(back.manifest.redaction!.total).toBeGreaterThan(scope === "session" ? planted.length : 0);
    if (scope === "fork") expect(JSON.parse(back.text.split("\n")[0]!).parentSession).toMatch(/\/--home-~--\/\[REDACTED:[a-z-]+\]\.jsonl$/);
  });

  it("keeps the tree, the structure and the image where pi's schema puts them", async () => {
    const { back } = await share(redacting("session"));
    const original = Session.fromText(source);
    const copy = Session.fromText(back.text);
    expect(copy.tree.entries.map((e) => [e.id, e.parentId, e.type])).toEqual(original.tree.entries.map((e) => [e.id, e.parentId, e.type]));
    expect(copy.leafId).toBe(original.leafId);
    expect(back.text).toContain(`{"type":"image","data":"${PNG}","mimeType":"image/png"}`);
    const call = JSON.parse(back.text.split("\n")[5]!).message.content[2];
    expect(call).toMatchObject({ type: "toolCall", id: "call_1", name: "bash" });
    expect(JSON.parse(back.text.split("\n")[6]!).message).toMatchObject({ role: "toolResult", toolCallId: "call_1" });
    expect(JSON.parse(back.text.split("\n")[9]!).message).toMatchObject({ role: "branchSummary", fromId: "e3" });
    expect(back.manifest.fileName).toMatch(/^\[REDACTED:[a-z-]+\]\.jsonl$/);
  });

  it("without rules, carries every line byte for byte, the duplicate key and the broken line too", async () => {
    const { back } = await share(defaultShareArgs());
    expect(back.text).toBe(source);
    expect(back.manifest.redaction).toBeNull();
  });
});

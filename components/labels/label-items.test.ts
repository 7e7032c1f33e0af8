import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Session } from "@/lib/session";
import { FIXTURES_DIR } from "@/lib/session/testing/golden";
import { labelItems } from "./label-items";

const open = (name: string) => Session.fromText(readFileSync(path.join(FIXTURES_DIR, `${name}.jsonl`), "utf8"));
const golden = (name: string) =>
  JSON.parse(readFileSync(path.join(FIXTURES_DIR, `golden/${name}.golden.json`), "utf8")).codingAgent.labels as Record<string, { label: string }>;

describe("labelItems", () => {
  it.each(["ca-labels", "ca-branching-a"])("lists pi's labels of %s, in file order of their targets", (name) => {
    const session = open(name);
    const items = labelItems(session);
    const expected = golden(name);
    expect(Object.fromEntries(items.map((i) => [i.targetId, i.label]))).toEqual(Object.fromEntries(Object.entries(expected).map(([id, l]) => [id, l.label])));
    const lines = items.map((i) => i.target!.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    for (const item of items) expect(item.target!.line).toBe(session.tree.node(item.targetId)!.line);
  });

  it("keeps a label whose target is not in the file, last and without a target", () => {
    const session = open("edge-label-missing-target");
    const items = labelItems(session);
    expect(items.length).toBeGreaterThan(0);
    const missing = items.filter((i) => i.target === null);
    expect(missing.map((i) => i.targetId).every((id) => !session.tree.get(id))).toBe(true);
    expect(missing.length).toBeGreaterThan(0);
    expect(items.slice(items.length - missing.length)).toEqual(missing);
  });
});

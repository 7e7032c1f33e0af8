import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Session, caMessages, hxMessages, modelView, type TreeEntry } from "@/lib/session";
import { FIXTURES_DIR } from "@/lib/session/testing/golden";
import { contextModel, excludedReason } from "./context-model";

type Golden = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function load(name: string): { session: Session; golden: Golden } {
  const session = Session.fromText(readFileSync(path.join(FIXTURES_DIR, `${name}.jsonl`), "utf8"));
  const golden = JSON.parse(readFileSync(path.join(FIXTURES_DIR, "golden", `${name}.golden.json`), "utf8"));
  return { session, golden: session.reader === "hx" ? golden.harness : golden.codingAgent };
}

describe("contextModel", () => {
  it("lists pi's context entries with their messages, and cuts what compaction replaced", () => {
    const { session, golden } = load("ca-compaction-a");
    const leaf = golden.load.fileLeafId as string;
    const record = golden.leaves[leaf];
    const model = contextModel(session, leaf);
    expect(model.entries.map((e) => e.entry.id)).toEqual(record.context);
    expect(model.messageCount).toBe(record.messageCount);
    expect(model.model).toEqual(record.model);
    expect(model.thinkingLevel).toBe(record.thinkingLevel);
    const kept = new Set<string>(record.context);
    const cut = record.path.filter((id: string) => !kept.has(id));
    expect(model.cut?.entries().map((e) => e.id)).toEqual(cut);
    expect(model.cut?.count).toBe(cut.length);
    expect(model.cut?.compactionId).toBe(record.context[0]);
    expect(session.tree.get(record.context[0])!.type).toBe("compaction");
  });

  it("says why an entry yields no message, exactly for the entries pi projects to nothing", () => {
    const { session, golden } = load("ca-roles-a");
    const leaf = golden.load.fileLeafId as string;
    const model = contextModel(session, leaf);
    for (const view of model.entries) {
      expect(view.messages).toEqual(caMessages(view.entry));
      expect(view.unsent === null, `${view.entry.id} (${String(view.entry.type)})`).toBe(caMessages(view.entry).length > 0);
    }
    const reasons = new Map(model.entries.filter((e) => e.unsent).map((e) => [e.entry.type, e.unsent]));
    expect(reasons.get("model_change")).toMatch(/model/);
    expect(reasons.get("custom")).toMatch(/extension state/);
  });

  it("carries pi's view of what is sent: convertToLlm leaves out !! bash runs, and the token count is modelView's", () => {
    const { session, golden } = load("ca-roles-a");
    const leaf = golden.load.fileLeafId as string;
    const model = contextModel(session, leaf);
    const messages = session.context(leaf).messages.map((m) => m.message);
    const excluded = messages.filter((m) => excludedReason(m) !== null);
    expect(excluded.length).toBeGreaterThan(0);
    expect(model.view.llm.length).toBe(messages.length - excluded.length);
    expect(model.view).toEqual(modelView(session, leaf));
    expect(model.path.entries().map((e) => e.id)).toEqual(session.branch(leaf).map((e) => e.id));
  });

  it("follows the harness on leaf-entry files: its context, retained tails, and the entries behind its short path", () => {
    const { session, golden } = load("hx-retained-a");
    expect(session.reader).toBe("hx");
    const compactions = session.tree.entries.filter((e): e is TreeEntry => e.type === "compaction" && Array.isArray(e.retainedTail));
    expect(compactions.length).toBeGreaterThan(0);
    const id = Object.keys(golden.leaves).find((k) => golden.leaves[k].context?.[0] === compactions[0]!.id && golden.leaves[k].path)!;
    const record = golden.leaves[id];
    const model = contextModel(session, id);
    expect(model.rules.id).toBe("hx");
    expect(model.readerReason).toBe(session.rulesChoice.reason);
    expect(model.entries.map((e) => e.entry.id)).toEqual(record.context);
    expect(model.messageCount).toBe(record.messageCount);
    const head = model.entries[0]!;
    expect(head.messages).toEqual(hxMessages(head.entry));
    expect(head.messages.filter((m) => m.source === "retainedTail")).toHaveLength((compactions[0]!.retainedTail as unknown[]).length);
    const full = session.branch(id, "ca").map((e) => e.id);
    const cut = full.filter((e) => !record.context.includes(e));
    expect(model.cut?.entries().map((e) => e.id)).toEqual(cut);
    expect(model.cut?.count).toBe(cut.length);
  });

  it("throws pi's error where pi throws", () => {
    const session = Session.fromText(readFileSync(path.join(FIXTURES_DIR, "edge-message-without-message.jsonl"), "utf8"));
    expect(() => contextModel(session, session.leafId!)).toThrow(/reading 'role'/);
  });
});

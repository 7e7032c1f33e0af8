import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateSession } from "../../bench/generate";
import { Session } from "../session";
import { listFixtures } from "../session/testing/golden";
import { cutFromContext, modelSwitches, modelSwitchesByWalk, pathIds } from "./marks";
import { fixtureSession } from "./testing/fixtures";

describe("marks", () => {
  it("takes the active path from session.branch", () => {
    const session = fixtureSession("ca-branching-a");
    const leaf = session.leafId!;
    expect([...pathIds(session, leaf)]).toEqual(session.branch(leaf).map((e) => e.id));
    expect(pathIds(session, null).size).toBe(0);
  });

  it("does not throw where pi never returns", () => {
    const session = fixtureSession("edge-cycle-at-leaf");
    expect(() => pathIds(session, session.leafId)).not.toThrow();
    expect(() => cutFromContext(session, session.leafId)).not.toThrow();
  });

  it("marks what compaction cut from the context", () => {
    const session = fixtureSession("ca-compaction-a");
    let checked = 0;
    for (const id of session.tree.ids()) {
      const kept = new Set(session.contextEntries(id).map((e) => e.id));
      const cut = cutFromContext(session, id);
      for (const entry of session.branch(id)) expect(cut.has(entry.id)).toBe(!kept.has(entry.id));
      if (cut.size) checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("marks model changes and assistant messages that switch the model", () => {
    const session = fixtureSession("ca-branching-a");
    const switches = modelSwitches(session);
    for (const entry of session.tree.nodes()) {
      const id = entry.entry.id;
      if (entry.entry.type === "model_change") expect(switches.has(id)).toBe(true);
      const message = entry.entry.message as { role?: string; provider?: string; model?: string } | undefined;
      if (message?.role !== "assistant") continue;
      const parent = session.tree.parentOf(id);
      const before = parent === null ? null : session.context(parent, "ca").model;
      const beforeName = before ? `${before.provider}/${before.modelId}` : null;
      expect(switches.has(id)).toBe(beforeName !== `${message.provider}/${message.model}`);
    }
  });

  it("finds the same switches in one pass in file order as a walk from the roots, on every fixture and a generated session", () => {
    let files = 0;
    const texts = [...listFixtures().map((f) => readFileSync(f.file, "utf8")), generateSession({ entries: 3000, seed: 4 })];
    for (const text of texts) {
      const session = Session.fromText(text);
      const switches = modelSwitches(session);
      expect(new Map([...switches].sort()), `file ${files}`).toEqual(new Map([...modelSwitchesByWalk(session)].sort()));
      if (switches.size) files++;
    }
    expect(files).toBeGreaterThan(3);
  });
});

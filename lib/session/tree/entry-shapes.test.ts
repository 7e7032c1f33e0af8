import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isObject } from "../json";
import { Session } from "../session";
import { listFixtures } from "../testing/golden";
import type { SessionEntry } from "../types";
import { EntryShapes, reportedContextSize } from "./entry-shapes";

/** What EntryShapes must say of `entry`, read from the entry itself. */
function shapeOf(entry: SessionEntry) {
  const message = entry.type === "message" && isObject(entry.message) ? entry.message : null;
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  let model = null;
  if (entry.type === "model_change") model = { provider: text(entry.provider), model: text(entry.modelId) };
  else if (message?.role === "assistant") model = { provider: text(message.provider), model: text(message.model) };
  return {
    type: typeof entry.type === "string" ? entry.type : undefined,
    role: typeof message?.role === "string" ? message.role : undefined,
    model,
    leafTarget: entry.type === "leaf" ? (typeof entry.targetId === "string" ? entry.targetId : null) : undefined,
    contextSize: reportedContextSize(entry),
  };
}

const shapeAt = (shapes: Pick<EntryShapes, "typeAt" | "roleAt" | "modelAt" | "contextSizeAt">, slot: number, leafTarget?: string | null) => ({
  type: shapes.typeAt(slot),
  role: shapes.roleAt(slot),
  model: shapes.modelAt(slot),
  leafTarget,
  contextSize: shapes.contextSizeAt(slot),
});

describe("EntryShapes", () => {
  it("answers for every entry of every fixture what the entry says (the tree's own columns, and spread across column growth)", () => {
    let checked = 0;
    for (const fixture of listFixtures()) {
      const tree = Session.fromText(readFileSync(fixture.file, "utf8")).tree;
      const shapes = new EntryShapes();
      for (let slot = 0; slot < tree.entryCount; slot++) {
        const entry = tree.entryAt(slot);
        const expected = shapeOf(entry);
        expect(shapeAt(tree, slot, expected.leafTarget)).toEqual(expected);
        shapes.set(slot * 331, entry);
        expect(shapeAt(shapes, slot * 331, shapes.leafTargetAt(slot * 331))).toEqual(expected);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("keeps no type, role or model that is not a string, and no leaf target for other entries", () => {
    const shapes = new EntryShapes();
    const odd: SessionEntry[] = [
      { type: 7, id: "a" } as unknown as SessionEntry,
      { type: "message", id: "b", message: "text" },
      { type: "message", id: "c", message: { role: ["assistant"], provider: "p" } },
      { type: "message", id: "d", message: { role: "assistant", provider: 1, model: "m" } },
      { type: "model_change", id: "e", provider: null, modelId: "" },
      { type: "leaf", id: "f", targetId: 3 },
      { type: "label", id: "g", targetId: "a" },
    ];
    odd.forEach((entry, slot) => shapes.set(slot, entry));
    expect(odd.map((entry, slot) => [shapeAt(shapes, slot, shapes.leafTargetAt(slot)), shapeOf(entry)])).toEqual(
      odd.map((entry) => [shapeOf(entry), shapeOf(entry)]),
    );
    expect(shapes.typeAt(0)).toBeUndefined();
    expect(shapes.roleAt(1)).toBeUndefined();
    expect(shapes.modelAt(3)).toEqual({ provider: "", model: "m" });
    expect(shapes.leafTargetAt(5)).toBeNull();
    expect(shapes.leafTargetAt(6)).toBeUndefined();
  });

  it("keeps every type and role of a file with more distinct ones than a column numbers", () => {
    const shapes = new EntryShapes();
    const count = 70_000;
    for (let slot = 0; slot < count; slot++) {
      shapes.set(slot, { type: slot % 2 ? `t${slot}` : "message", id: `e${slot}`, message: { role: `r${slot}` } } as SessionEntry);
    }
    const wrong: number[] = [];
    for (let slot = 0; slot < count; slot++) {
      const [type, role] = slot % 2 ? [`t${slot}`, undefined] : ["message", `r${slot}`];
      if (shapes.typeAt(slot) !== type || shapes.roleAt(slot) !== role) wrong.push(slot);
    }
    expect(wrong).toEqual([]);
    // a slot set again forgets what it held
    shapes.set(count - 1, { type: "leaf", id: "x", targetId: "e1" });
    expect([shapes.typeAt(count - 1), shapes.roleAt(count - 1), shapes.leafTargetAt(count - 1)]).toEqual(["leaf", undefined, "e1"]);
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Session } from "../session";
import { listFixtures } from "../testing/golden";
import { CYCLE, ROOT, step, type PathState } from "./path-state";
import { PathStates } from "./path-states";
import type { TreeEntry } from "../types";

/** pi's walk state at every entry of the session, as objects: one step from the parent's, by the tree's own parent links. */
function statesByWalk(session: Session): PathState[] {
  const tree = session.tree;
  const known = new Map<string, PathState>();
  const stateOf = (id: string): PathState => {
    const pending: string[] = [];
    const seen = new Set<string>();
    let base = ROOT;
    for (let at: string | null = id; at !== null && tree.get(at); at = tree.parentOf(at)) {
      const state = known.get(at);
      if (state) {
        base = state;
        break;
      }
      if (seen.has(at)) return CYCLE;
      seen.add(at);
      pending.push(at);
    }
    for (let i = pending.length - 1; i >= 0; i--) known.set(pending[i]!, (base = step(base, tree.get(pending[i]!)!)));
    return base;
  };
  return [...tree.ids()].map(stateOf);
}

describe("PathStates", () => {
  it("gives back every state it was given, on every fixture (across column growth)", () => {
    for (const fixture of listFixtures()) {
      const session = Session.fromText(readFileSync(fixture.file, "utf8"));
      const states = statesByWalk(session);
      const columns = new PathStates();
      // spread over slots far apart so the columns grow while holding states
      states.forEach((state, i) => columns.set(i * 97, state));
      states.forEach((state, i) => expect(columns.get(i * 97), `${fixture.name} #${i}`).toEqual(state));
      expect(columns.get(1), `${fixture.name}: a slot never set`).toBeNull();
    }
  });

  it("keeps one row of usage numbers per usage an entry adds, not one per entry", () => {
    for (const name of ["ca-large", "ca-compaction-a"]) {
      const fixture = listFixtures().find((f) => f.name === name)!;
      const session = Session.fromText(readFileSync(fixture.file, "utf8"));
      const columns = new PathStates();
      // as the tree does: each child's state stepped from the state read back for its parent
      const slots = new Map<string, number>();
      let adding = 0;
      for (const [slot, id] of [...session.tree.ids()].entries()) {
        const entry = session.tree.get(id)!;
        const parent = entry.parentId ? slots.get(entry.parentId as string) : undefined;
        const state = step(parent === undefined ? ROOT : columns.get(parent)!, entry);
        if (parent !== undefined && state.usage !== columns.get(parent)!.usage) adding++;
        columns.set(slot, state);
        slots.set(id, slot);
      }
      const rows = (columns as unknown as { rows: number }).rows;
      expect(rows, name).toBeLessThanOrEqual(adding + 2);
      expect(rows, name).toBeLessThan(session.tree.size / 2);
      statesByWalk(session).forEach((state, slot) => expect(columns.get(slot), `${name} #${slot}`).toEqual(state));
    }
  });

  it("keeps unknown, cycle and error states apart, and one model ref per model", () => {
    const columns = new PathStates();
    const message = (provider: string, model: string): TreeEntry => ({
      type: "message",
      id: `${provider}/${model}`,
      parentId: null,
      timestamp: "2026-01-01T00:00:00.000Z",
      message: {
        role: "assistant",
        provider,
        model,
        content: [],
        usage: { input: 3, output: 5, cacheRead: 7, cacheWrite: 11, totalTokens: 26, cost: { total: 0.125 } },
      },
    });
    const a = step(ROOT, message("p", "m"));
    const b = step(a, { ...message("p", "m"), message: { role: "assistant", provider: "p", model: "m" } });
    const broken = step(b, { type: "message", id: "x", parentId: null, timestamp: "t" } as TreeEntry);
    columns.set(0, a);
    columns.set(1, b);
    columns.set(2, CYCLE);
    columns.set(3, broken);
    columns.set(4, null);
    expect(columns.get(0)).toEqual(a);
    expect(columns.get(1)).toEqual(b);
    expect(columns.get(0)!.model).toBe(columns.get(1)!.model);
    expect(columns.get(2)).toBe(CYCLE);
    expect(columns.get(3)!.error).toMatch(/Cannot read properties of undefined/);
    expect(columns.get(3)).toEqual(broken);
    expect(columns.get(4)).toBeNull();
    expect(columns.get(5)).toBeNull();
    expect(columns.depthAt(1)).toBe(2);
    expect(columns.depthAt(2)).toBe(-1);
    expect(columns.depthAt(4)).toBe(-1);
    // a slot written again forgets what it held
    columns.set(3, b);
    expect(columns.get(3)).toEqual(b);
  });
});

import { describe, expect, it } from "vitest";
import { describeStep, isRewind, nearestRewind, rewindIndices } from "./leaf-history";
import { fixtureSession } from "./testing/fixtures";

describe("leaf history", () => {
  const session = fixtureSession("hx-leaf-moves-a");
  const rewinds = rewindIndices(session.tree.leafHistory);
  const history = [...session.tree.leafHistory];

  it("marks branches and leaf entries as rewinds, appends not", () => {
    expect(rewinds.length).toBe(history.filter((s) => s.kind === "branch" || s.kind === "leaf-entry").length);
    expect(rewinds.length).toBeGreaterThan(0);
    for (const i of rewinds) expect(isRewind(history[i]!)).toBe(true);
  });

  it("steps between rewinds", () => {
    expect(nearestRewind(rewinds, -1, 1)).toBe(rewinds[0]);
    expect(nearestRewind(rewinds, rewinds[0]!, 1)).toBe(rewinds[1] ?? null);
    expect(nearestRewind(rewinds, rewinds[0]!, -1)).toBeNull();
    expect(nearestRewind(rewinds, history.length, -1)).toBe(rewinds[rewinds.length - 1]);
  });

  it("describes each kind of step with the ids involved", () => {
    for (const step of history) {
      const text = describeStep(step);
      if (step.kind === "leaf-entry") expect(text).toContain(String(step.leafId ?? "(none)"));
      else expect(text).toContain(String(step.entryId));
    }
  });
});

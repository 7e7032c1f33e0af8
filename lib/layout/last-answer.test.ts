import { describe, expect, it } from "vitest";
import { generateSession } from "../../bench/generate";
import { Session } from "../session";
import { linearSession } from "../session/testing/linear-session";
import { planFolds, planFoldSteps } from "./display-tree";
import { lastAnswer, STEP_EVERY } from "./last-answer";
import { modelSwitches, modelSwitchSteps, pathIds } from "./marks";

/** Appends an entry as the live tail does. */
function append(session: Session, id: string, parentId: string, role: string): void {
  expect(session.parser.reopen()).toBe(true);
  const message = { role, content: role === "user" ? "more" : [], timestamp: 2 };
  session.parser.push(`${JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:09.000Z", message })}\n`);
  session.parser.end();
}

describe("lastAnswer", () => {
  it("answers again from memory for the same session, key and tree; computes anew when one changes", () => {
    let calls = 0;
    const size = lastAnswer((session, key: string) => {
      calls++;
      return { key, size: session.tree.size };
    });
    const a = linearSession([{ role: "user", content: "one", timestamp: 1 }]);
    const b = linearSession([{ role: "user", content: "two", timestamp: 1 }]);
    const first = size(a, "x");
    expect(size(a, "x")).toBe(first);
    expect(calls).toBe(1);
    expect(size(a, "y")).toEqual({ key: "y", size: 1 });
    expect(size(b, "y")).toEqual({ key: "y", size: 1 });
    expect(calls).toBe(3);
    // the session grows: the answer is made again from the grown tree
    append(a, "m2", "m1", "assistant");
    expect(size(a, "y")).toEqual({ key: "y", size: 2 });
    expect(calls).toBe(4);
  });

  it("keeps the graph's marks current as the session grows (pathIds)", () => {
    const session = linearSession([{ role: "user", content: "one", timestamp: 1 }]);
    expect([...pathIds(session, "m1")]).toEqual(["m1"]);
    append(session, "m2", "m1", "user");
    expect([...pathIds(session, "m2")]).toEqual(["m1", "m2"]);
  });
});

describe("walks in slices (Steps)", () => {
  const text = generateSession({ entries: 6000, seed: 11 });
  const session = Session.fromText(text);

  it.each([
    ["planFolds", () => planFoldSteps(session, { keep: [session.leafId] }), () => planFolds(session, { keep: [session.leafId] })],
    // a fresh session: the walk keeps its answer for this one
    ["modelSwitches", () => modelSwitchSteps(session), () => modelSwitches(Session.fromText(text))],
  ] as const)("%s stops every few thousand entries and ends with the answer it gives at once", (_, steps, atOnce) => {
    const walk = steps();
    let pauses = 0;
    let next = walk.next();
    while (!next.done) {
      pauses++;
      next = walk.next();
    }
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(6000 / STEP_EVERY));
    expect(next.value).toEqual(atOnce());
  });
});

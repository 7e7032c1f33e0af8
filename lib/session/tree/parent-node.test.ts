// SessionTree.parentNode remembers each step up a walk; a parent that arrives late or an id written again
// (a live tail does both) must be seen by the next walk.
import { describe, expect, it } from "vitest";
import type { Session } from "../session";
import { linearSession } from "../testing/linear-session";

function append(session: Session, id: string, parentId: string | null): void {
  expect(session.parser.reopen()).toBe(true);
  const message = { role: "user", content: id, timestamp: 1 };
  session.parser.push(`${JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:01:00.000Z", message })}\n`);
  session.parser.end();
}

const ids = (session: Session, id: string) => session.branch(id, "ca").map((e) => e.id);

describe("walks up after the tree changes", () => {
  it("a late parent joins the paths below it; an id written again moves them", () => {
    const session = linearSession([{ role: "user", content: "one", timestamp: 1 }]);
    append(session, "c", "b"); // b is not there yet
    expect(ids(session, "c")).toEqual(["c"]);
    append(session, "b", "m1");
    expect(ids(session, "c")).toEqual(["m1", "b", "c"]);
    append(session, "d", "c");
    expect(ids(session, "d")).toEqual(["m1", "b", "c", "d"]);
    append(session, "b", null); // pi: the last line with an id wins
    expect(ids(session, "d")).toEqual(["b", "c", "d"]);
  });
});

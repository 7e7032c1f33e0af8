import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compareNodes, Session, SessionQueryError } from "@/lib/session";
import { FIXTURES_DIR } from "@/lib/session/testing/golden";
import { comparisonView } from "./compare-model";

const session = Session.fromText(readFileSync(path.join(FIXTURES_DIR, "ca-branching-a.jsonl"), "utf8"));
const leaves = [...session.tree.ids()].filter((id) => session.tree.children(id).length === 0);

describe("comparisonView", () => {
  it("marks A, B, the common ancestor and each segment's entries for the graph", () => {
    const [a, b] = leaves.filter((id) => compareNodes(session, leaves[0]!, id).commonAncestorId !== null);
    const view = comparisonView(session, a!, b!, 0);
    expect(view.ok).toBe(true);
    if (!view.ok) return;
    const result = compareNodes(session, a!, b!);
    expect(view.roles.get(a!)).toBe("a");
    expect(view.roles.get(b!)).toBe("b");
    expect(view.roles.get(result.commonAncestorId!)).toBe("ancestor");
    for (const id of result.a.segment.slice(0, -1)) expect(view.roles.get(id)).toBe("segment-a");
    for (const id of result.b.segment.slice(0, -1)) expect(view.roles.get(id)).toBe("segment-b");
    expect(view.roles.size).toBe(result.a.segment.length + result.b.segment.length + 1);
  });

  it("answers again from its cache for the same question, afresh for a new revision", () => {
    const view = comparisonView(session, leaves[0]!, leaves[1]!, 0);
    expect(comparisonView(session, leaves[0]!, leaves[1]!, 0)).toBe(view);
    expect(comparisonView(session, leaves[0]!, leaves[1]!, 1)).not.toBe(view);
  });

  it("reports an id not in the file as pi's error, still marking the one that exists", () => {
    const view = comparisonView(session, leaves[0]!, "missing", 0);
    expect(view.ok).toBe(false);
    if (view.ok) return;
    expect(view.error).toBeInstanceOf(SessionQueryError);
    expect(view.roles.get(leaves[0]!)).toBe("a");
  });
});

// The cards' facts of a library file shown from its snapshot before its lines came: what the index alone knows
// at once, nothing read while drawing, and the same words as the whole file once the frames were read.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Session } from "@/lib/session";
import { LightSessionReader } from "@/lib/session/read/light-session";
import { RangedLines } from "@/lib/session/read/ranged-lines";
import { framesOf, snapshotOf } from "@/lib/session/testing/light-frames-of";
import { buildDisplayTree } from "@/lib/layout/display-tree";
import { tidyXs } from "@/lib/layout/tidy-layout";
import { factsOf, layoutAhead, layoutFor } from "./graph-model";

const FIXTURES = path.resolve(__dirname, "../../../shared/fixtures");

/** `name`'s session restored from the server's snapshot with none of its lines come; `atOnce` counts reads that waited. */
function shownEarly(name: string) {
  const bytes = readFileSync(path.join(FIXTURES, name));
  const { frames } = framesOf(bytes, 1 << 10);
  const snapshot = snapshotOf(frames);
  if (!snapshot) throw new Error(`${name}: the server keeps no snapshot of it`);
  const reader = new LightSessionReader(new RangedLines(async (start, end) => bytes.slice(start, end)));
  reader.keepLightText(8);
  const reads = { atOnce: 0 };
  const parser = reader.restoreNow(
    snapshot,
    (start, end) => (reads.atOnce++, frames.slice(start, end)),
    async (start, end) => frames.slice(start, end),
  );
  if (!parser) throw new Error(`${name}: the snapshot was not restored`);
  return { session: new Session(parser), whole: Session.fromText(bytes.toString("utf8")), reads };
}

describe("factsOf, while the session's text is coming", () => {
  for (const name of ["ca-large.jsonl", "hx-leaf-moves-a.jsonl"]) {
    it(`${name}: describes every entry from the index at once, then as the whole file does once its frame was read`, async () => {
      const { session, whole, reads } = shownEarly(name);
      const facts = factsOf(session);
      const wholeFacts = factsOf(whole);
      const ids = whole.tree.entries.map((entry) => entry.id).filter((id): id is string => typeof id === "string");
      expect(session.tree.textComing).toBe(true);
      for (const id of ids) {
        const early = facts.describe(id);
        const full = wholeFacts.describe(id);
        expect(early.coming).toBe(true);
        expect({ kind: early.kind, model: early.model }).toEqual({ kind: full.kind, model: full.model });
        expect(facts.moveTarget(id)).toBe(wholeFacts.moveTarget(id));
      }
      expect(reads.atOnce).toBe(0);
      expect(session.tree.textRefused).toBe(true);
      for (let rounds = 0; ids.some((id) => facts.describe(id).coming); rounds++) {
        expect(rounds).toBeLessThan(ids.length);
        await session.tree.readRefused();
      }
      for (const id of ids) expect(facts.describe(id)).toEqual(wholeFacts.describe(id));
      expect(reads.atOnce).toBe(0);
    });
  }
});

describe("layoutAhead", () => {
  it("leaves the layout that layoutFor makes where layoutFor finds it, its tidy tree made elsewhere", async () => {
    const session = Session.fromText(readFileSync(path.join(FIXTURES, "hx-leaf-moves-a.jsonl"), "utf8"));
    const display = buildDisplayTree(session, { threshold: Infinity });
    const inPage = layoutFor(session, buildDisplayTree(session, { threshold: Infinity }));
    let asked = 0;
    await layoutAhead(session, display, async (parents) => (asked++, tidyXs(parents)));
    const found = layoutFor(session, display);
    expect(asked).toBe(1);
    expect(found).toEqual(inPage);
    // made already: not made again
    await layoutAhead(session, display, async (parents) => (asked++, tidyXs(parents)));
    expect(asked).toBe(1);
    expect(layoutFor(session, display)).toBe(found);
  });
});

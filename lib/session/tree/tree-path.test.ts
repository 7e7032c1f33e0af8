import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RULE_SETS } from "../rules/registry";
import { Session } from "../session";
import { listFixtures } from "../testing/golden";
import type { RuleSetId } from "../types";

describe("TreePath", () => {
  it("holds each rule set's getBranch, entry for entry, for entries all over every fixture", () => {
    let checked = 0;
    for (const fixture of listFixtures()) {
      const session = Session.fromText(readFileSync(fixture.file, "utf8"));
      const readers: RuleSetId[] = ["ca", "hx", session.reader];
      const ids = [...session.tree.ids()];
      const step = Math.max(1, Math.floor(ids.length / 40));
      for (let k = 0; k < ids.length; k += step) {
        const id = ids[k]!;
        for (const reader of new Set(readers)) {
          let walked;
          try {
            walked = RULE_SETS[reader].branch(session, id);
          } catch (error) {
            expect(() => session.sharedBranch(id, reader), `${fixture.name} ${id}`).toThrow((error as Error).message);
            continue;
          }
          const path = session.sharedBranch(id, reader);
          expect(path.length).toBe(walked.length);
          expect(path.entries()).toEqual(walked);
          expect([...path]).toEqual(walked);
          const at = walked.map((_, i) => path.at(i));
          expect(at.every((entry, i) => entry === walked[i])).toBe(true);
          expect(walked.map((_, i) => path.idAt(i))).toEqual(walked.map((entry) => entry.id));
          expect(walked.map((_, i) => path.typeAt(i))).toEqual(walked.map((entry) => (typeof entry.type === "string" ? entry.type : undefined)));
          expect([path.at(walked.length), path.idAt(-1), path.typeAt(walked.length)]).toEqual([undefined, undefined, undefined]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

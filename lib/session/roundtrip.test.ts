// Export fork round-trip (spec §12.1): the fork of an entry, read back, has that entry's path and context.
// What the fork changes by design: label entries leave the path, every kept entry's parentId is re-chained,
// the labels in force come back as new label entries after the leaf, and the header is new.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { Session, SessionQueryError, type TreeEntry } from "./index";
import { listFixtures } from "./testing/golden";
import { Rng } from "./testing/rng";

const SEED = Number(process.env.ROUNDTRIP_SEED ?? 12_1);
/**
 * every entry of files up to this many entries; beyond, a seeded sample plus the leaf and the last entry
 * (each fork re-reads its whole path, so all 5000 entries of ca-large cost minutes on 2 shared cores)
 */
const ALL_UP_TO = Number(process.env.ROUNDTRIP_ALL_UP_TO ?? 400);
const SAMPLE = 120;
const counts = { forks: 0, refused: 0 };

function withoutParent(entry: TreeEntry): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...entry };
  delete rest.parentId;
  return rest;
}

function idsToFork(session: Session, name: string): string[] {
  const ids = [...session.tree.ids()];
  if (ids.length <= ALL_UP_TO) return ids;
  const rng = new Rng(SEED ^ name.length);
  const chosen = new Set<string>([ids[ids.length - 1]!]);
  if (session.leafId) chosen.add(session.leafId);
  while (chosen.size < SAMPLE) chosen.add(ids[rng.int(ids.length)]!);
  return [...chosen];
}

afterAll(() => console.log(`fork round-trip: ${counts.forks} forks read back, ${counts.refused} entries pi cannot fork (refused with SessionQueryError)`));

describe("export fork round-trip", () => {
  it.each(listFixtures())("$name: every fork reads back to the same path and context", (fixture) => {
    const source = Session.fromText(readFileSync(fixture.file, "utf8"));
    const sourceKinds = new Set(source.parser.diagnostics.map((d) => d.kind));
    for (const id of idsToFork(source, fixture.name)) {
      let path: TreeEntry[];
      let fork;
      try {
        path = source.branch(id, "ca");
        // the coding agent's fork (§12.1), also for a v4 log, whose own rules fork it as pi-agent-core does
        fork = source.fork(id, { timestamp: "2026-01-01T00:00:00.000Z", sessionId: "roundtrip" }, "ca");
      } catch (error) {
        // pi cannot fork here either (a parent cycle, a message entry without message): a typed refusal
        expect(error, `${fixture.name} ${id}`).toBeInstanceOf(SessionQueryError);
        counts.refused++;
        continue;
      }
      counts.forks++;
      const context = `${fixture.name} fork at ${id}`;
      expect(fork.text.endsWith("\n"), context).toBe(true);
      // the fork is a CA file (HX leaf entries on the path are copied, so it is read by the CA rules explicitly)
      const copy = Session.fromText(fork.text, { reader: "ca" });
      // entries are copied as they are, so an odd entry (no type, say) keeps its warning; nothing new goes wrong
      const newProblems = copy.parser.diagnostics.filter((d) => d.severity !== "info" && !sourceKinds.has(d.kind));
      expect(newProblems, context).toEqual([]);

      // the path: the source's without label entries, same ids and fields, parents re-chained;
      // a fork at a label entry ends at the last entry kept before it
      const kept = path.filter((e) => e.type !== "label");
      const end = kept[kept.length - 1]?.id;
      if (end === undefined) {
        expect(copy.tree.entries.length, context).toBe(0);
        continue;
      }
      const copied = copy.branch(end);
      expect(copied.map(withoutParent), context).toEqual(kept.map(withoutParent));
      expect(
        copied.map((e) => e.parentId),
        context,
      ).toEqual([null, ...kept.slice(0, -1).map((e) => e.id)]);

      // the context at the forked entry, and at the fork's own leaf (the last re-created label, if any)
      const expected = source.context(id, "ca");
      const labelIds = new Set(path.filter((e) => e.type === "label").map((e) => e.id));
      const wanted = { ...expected, entryIds: expected.entryIds.filter((e) => !labelIds.has(e)) };
      expect(copy.context(end), context).toEqual(wanted);
      const atLeaf = copy.context(copy.leafId);
      expect({ ...atLeaf, entryIds: atLeaf.entryIds.filter((e) => copy.tree.get(e)?.type !== "label") }, context).toEqual(wanted);

      // the labels in force on kept entries, and only those, with the label and time that set them
      const keptIds = new Set(kept.map((e) => e.id));
      const wantLabels = [...source.labels("ca")].filter(([target]) => keptIds.has(target)).map(([target, s]) => [target, s.label, s.timestamp]);
      const gotLabels = [...copy.labels("ca")].map(([target, s]) => [target, s.label, s.timestamp]);
      expect(gotLabels, context).toEqual(wantLabels);
    }
  });
});

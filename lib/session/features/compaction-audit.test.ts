import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Session } from "../session";
import { listFixtures } from "../testing/golden";
import { compactionAudit } from "./compaction-audit";

describe("compactionAudit", () => {
  const fixture = listFixtures().find((f) => f.name === "ca-compaction-multi-a")!;
  const session = Session.fromText(readFileSync(fixture.file, "utf8"));
  const compactions = session.tree.entries.filter((e) => e.type === "compaction");

  it("puts pi's preparation on the path before each compaction beside what the file recorded", () => {
    expect(compactions.length).toBeGreaterThan(1);
    for (const entry of compactions) {
      const audit = compactionAudit(session, session.tree.get(entry.id as string)!, 20000);
      expect(audit.computed).toEqual(session.compaction(entry.parentId as string, 20000));
      expect(audit.recorded.firstKeptEntryId).toBe(entry.firstKeptEntryId);
      expect(audit.recorded.tokensBefore).toBe(entry.tokensBefore);
      if (audit.computed) {
        expect(audit.same.firstKeptEntryId).toBe(entry.firstKeptEntryId === audit.computed.firstKeptEntryId);
        expect(audit.same.tokensBefore).toBe(entry.tokensBefore === audit.computed.tokensBefore);
      }
    }
  });

  it("follows the keep-recent setting: keeping less cuts later", () => {
    const audited = compactions.map((e) => session.tree.get(e.id as string)!).filter((e) => compactionAudit(session, e, 10).computed !== null);
    expect(audited.length).toBeGreaterThan(0);
    for (const entry of audited) {
      const narrow = compactionAudit(session, entry, 10).computed!;
      const wide = compactionAudit(session, entry, 1_000_000).computed;
      // keeping everything leaves nothing to summarize, or summarizes no more than keeping almost nothing
      expect(wide === null || wide.messagesToSummarize.length <= narrow.messagesToSummarize.length).toBe(true);
    }
  });
});

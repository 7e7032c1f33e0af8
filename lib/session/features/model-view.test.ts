/**
 * The model's view on every shared fixture, at every entry, against pi
 * 0.84.1's own code: its SessionManager's buildSessionContext, then its
 * convertToLlm and token accounting over those messages (pi computes the
 * expected answers as the goldens do; the random differential tests cover the
 * other versions and the harness).
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Session } from "../session";
import { SessionQueryError } from "../types";
import { listFixtures } from "../testing/golden";
import { loadProjection, moduleUrl, sameModelView, type CaModule, type PiProjection } from "../testing/oracle";
import type { WrittenEntry } from "../testing/random-session";
import { contextSizes, modelView, wouldCompact } from "./model-view";
import { readFileSync } from "node:fs";

interface Sm {
  getEntries(): WrittenEntry[];
}

let ca: CaModule<Sm>;
let pi: PiProjection;
let tmp: string;

beforeAll(async () => {
  ca = (await import(moduleUrl("@earendil-works/pi-coding-agent/dist/core/session-manager.js"))) as CaModule<Sm>;
  pi = await loadProjection("@earendil-works/pi-coding-agent", "coding-agent");
  tmp = mkdtempSync(path.join(os.tmpdir(), "pi-model-view-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("modelView on the shared fixtures, as pi 0.84.1 computes it", () => {
  for (const fixture of listFixtures()) {
    it(fixture.name, () => {
      const session = Session.fromText(readFileSync(fixture.file, "utf8"), { reader: "ca" });
      if (session.parser.caRefused) return expect(session.diagnostics().some((d) => d.severity === "error")).toBe(true);
      // pi's SessionManager may rewrite a file it opens: it gets a copy
      const copy = path.join(tmp, path.basename(fixture.file));
      copyFileSync(fixture.file, copy);
      const entries = ca.SessionManager.open(copy, tmp).getEntries();
      const byId = new Map(entries.map((e) => [e.id, e]));
      for (const entry of entries) {
        // where pi cannot build the context (a parent cycle never returns; a missing message throws) the golden tests
        // check that we say so; there is nothing to send
        let ours;
        try {
          ours = modelView(session, entry.id, "ca");
        } catch (error) {
          expect(error, `${fixture.name} entry ${entry.id}`).toBeInstanceOf(SessionQueryError);
          continue;
        }
        const theirs = ca.buildSessionContext(entries, entry.id, byId);
        sameModelView(ours, theirs.messages, pi, `${fixture.name} entry ${entry.id}`);
      }
    });
  }
});

describe("contextSizes", () => {
  it("charts each trusted reply's reported context and marks the compactions with their tokensBefore", () => {
    const fixture = listFixtures().find((f) => f.name === "ca-compaction-a")!;
    const session = Session.fromText(readFileSync(fixture.file, "utf8"));
    const path = session.branch(session.leafId!);
    const points = contextSizes(path);
    const compactions = path.filter((e) => e.type === "compaction");
    expect(points.filter((p) => p.kind === "compaction").map((p) => [p.entryId, p.tokens])).toEqual(compactions.map((e) => [e.id, e.tokensBefore]));
    for (const point of points.filter((p) => p.kind === "usage")) {
      const message = path[point.index]!.message as { usage: { totalTokens: number }; stopReason: string };
      expect(point.tokens).toBe(message.usage.totalTokens);
      expect(["aborted", "error"]).not.toContain(message.stopReason);
    }
    expect(points.some((p) => p.kind === "usage")).toBe(true);
  });
});

describe("wouldCompact", () => {
  it("is pi's shouldCompact: over window − reserve, and unknown without a window", () => {
    const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };
    expect(wouldCompact(200000 - 16384, 200000, settings)).toBe(false);
    expect(wouldCompact(200000 - 16383, 200000, settings)).toBe(true);
    expect(wouldCompact(5, null, settings)).toBeNull();
    expect(wouldCompact(1e9, 200000, { ...settings, enabled: false })).toBe(false);
  });
});

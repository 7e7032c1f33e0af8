import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Session, SessionQueryError, type RuleSetId } from "./index";
import { goldenHash, goldenMessages, idNamer, listFixtures, originalMessages } from "./testing/golden";

type Golden = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The golden's record for one entry as leaf, computed our way. */
function ourRecord(session: Session, reader: RuleSetId, id: string, names: ReturnType<typeof idNamer>, original: Map<number, string>) {
  try {
    const path = session.branch(id, reader).map((e) => names.name(e.id));
    const context = session.context(id, reader);
    const ctxIds = context.entryIds.map(names.name);
    const messages = goldenMessages(context.messages, session, original, names.name);
    const record: Record<string, unknown> = {
      pathLen: path.length,
      pathHash: goldenHash(path),
      contextLen: ctxIds.length,
      contextHash: goldenHash(ctxIds),
      messageCount: messages.length,
      messagesHash: goldenHash(messages),
      model: context.model === null ? null : JSON.parse(JSON.stringify(context.model)),
      thinkingLevel: context.thinkingLevel,
      path,
      context: ctxIds,
      messages,
    };
    if (reader === "hx") record.activeToolNames = context.activeToolNames ?? null;
    return record;
  } catch (error) {
    if (error instanceof SessionQueryError) return error.kind === "cycle" ? { nonTerminating: true } : { error: error.message };
    throw error;
  }
}

function compareRecord(ours: Record<string, unknown>, golden: Golden) {
  if (golden.nonTerminating) return expect(ours).toEqual({ nonTerminating: true });
  if (golden.error)
    return expect(ours.error, "pi throws here").toBe(
      golden.error.replace(/^\w*Error: /, "").replace(/^/, golden.error.startsWith("TypeError") ? "TypeError: " : ""),
    );
  const expected: Record<string, unknown> = {};
  for (const key of Object.keys(golden)) expected[key] = golden[key];
  const actual: Record<string, unknown> = {};
  for (const key of Object.keys(golden)) actual[key] = ours[key];
  expect(actual).toEqual(expected);
}

const fixtures = listFixtures();

describe.each(fixtures)("$name matches pi's goldens", (fixture) => {
  const text = readFileSync(fixture.file, "utf8");
  const golden: Golden = JSON.parse(readFileSync(fixture.goldenFile, "utf8"));
  const ca = golden.codingAgent;
  const hx = golden.harness;
  const session = Session.fromText(text, { reader: "ca" });
  const names = idNamer(session, ca.load.migratedFromVersion === 1);
  const original = originalMessages(text);

  it("accounts for every physical line", () => {
    const account = session.account();
    expect(account.total).toBe(golden.input.physicalLines);
    expect(account.blank).toBe(golden.input.blankLines);
    const unparsable = session.parser.lineKinds
      .list()
      .flatMap((k, i) => (k === "unreadable" && session.parser.unreadable.get(i + 1) === "json" ? [i + 1] : []));
    expect(unparsable).toEqual(golden.input.unparsableLines);
    expect(account.header + account.entry + account.blank + account.unreadable + account["extra-header"]).toBe(account.total);
    expect(session.parser.endsWithNewline).toBe(golden.input.endsWithNewline || golden.input.bytes === 0);
  });

  it("loads like the coding agent", () => {
    if (!ca.load.ok) {
      expect(session.parser.caRefused).toBe(true);
      expect(session.diagnostics().some((d) => d.severity === "error" && (d.kind === "no-header" || d.kind === "bom" || d.kind === "v4-log"))).toBe(true);
      return;
    }
    expect(session.parser.caRefused).toBe(false);
    if (golden.input.bytes === 0) {
      expect(session.header).toBeNull();
      expect(session.diagnostics().map((d) => d.kind)).toContain("empty-file");
    } else {
      expect(session.header).toEqual(ca.load.header);
      expect(Object.keys(session.header!)).toEqual(Object.keys(ca.load.header));
    }
    expect(session.tree.entries.length).toBe(ca.load.entryCount);
    expect(new Set(session.tree.entries.map((e) => e.id)).size).toBe(ca.load.uniqueIdCount);
    const leaf = session.tree.leaf("ca");
    expect(leaf === null ? (session.tree.leafIsIdless ? undefined : null) : names.name(leaf)).toBe(ca.load.fileLeafId);
    expect(session.name).toBe(ca.load.sessionName);
    const labels: Golden = {};
    for (const [target, state] of session.labels("ca")) {
      labels[names.name(target)] = session.tree.get(target) ? { label: state.label, timestamp: state.timestamp } : { label: state.label, targetMissing: true };
    }
    expect(labels).toEqual(ca.labels);
  });

  if (ca.load.ok && ca.tree)
    it("draws pi's tree (getTree)", () => {
      if (ca.tree.nonTerminating) {
        expect(session.shape().cycles.length).toBeGreaterThan(0);
        return;
      }
      if (ca.tree.roots.some((r: unknown) => r === null)) {
        // entries without ids: pi's tree holds only `undefined` nodes, ours none
        expect(session.tree.size).toBe(0);
        return;
      }
      expect(session.tree.roots.map(names.name)).toEqual(ca.tree.roots);
      const children: Golden = {};
      const stack = [...session.tree.roots];
      while (stack.length) {
        const id = stack.pop()!;
        const kids = session.tree.children(id);
        if (kids.length) children[names.name(id)] = kids.map(names.name);
        stack.push(...kids);
      }
      expect(children).toEqual(ca.tree.children);
    });

  if (ca.load.ok)
    it("has pi's branch, context, model and thinking level at every entry (coding agent)", () => {
      if (ca.fileLeaf) compareRecord(ourRecord(session, "ca", session.tree.leaf("ca")!, names, original), ca.fileLeaf);
      for (const [name, record] of Object.entries(ca.leaves as Golden)) {
        compareRecord(ourRecord(session, "ca", names.id(name), names, original), record);
      }
    });

  if (ca.load.ok)
    it("forks like createBranchedSession", () => {
      const when = "2026-12-02T10:11:12.131Z";
      for (const [name, record] of Object.entries(ca.forks as Golden)) {
        let labelCount = 0;
        const run = () =>
          session.fork(
            names.id(name),
            {
              sessionId: "<new-session-id>",
              timestamp: when,
              sourcePath: "<source-session-file>",
              labelId: () => `<new-label-${++labelCount}>`,
            },
            "ca",
          );
        if (record.nonTerminating || record.error) {
          expect(run).toThrow(SessionQueryError);
          continue;
        }
        const fork = run();
        expect(fork.fileName).toBe("2026-12-02T10-11-12-131Z_<new-session-id>.jsonl");
        expect({ ...fork.header, timestamp: "<fork-time>" }).toEqual(record.header);
        expect(fork.hasAssistant).toBe(record.written);
        const copied = fork.entries.filter((e) => !String(e.id).startsWith("<new-label-"));
        const items = copied.map((e) => {
          const source = session.tree.get(e.id as string)!;
          const { parentId: _a, ...rest } = e;
          const { parentId: _b, ...sourceRest } = source;
          void _a;
          void _b;
          return JSON.stringify(rest) === JSON.stringify(sourceRest) ? names.name(e.id as string) : { modified: e };
        });
        if (record.entries) expect(items).toEqual(record.entries);
        else {
          expect(items.length).toBe(record.entriesLen);
          expect(goldenHash(items)).toBe(record.entriesHash);
        }
        const rechained = copied.every((e, i) => e.parentId === (i === 0 ? null : copied[i - 1]!.id));
        expect(rechained).toBe(record.rechained);
        const labels = fork.entries
          .slice(copied.length)
          .map((e) => ({ ...e, parentId: e.parentId === null ? null : names.name(e.parentId as string), targetId: names.name(e.targetId as string) }));
        expect(labels).toEqual(record.labels);
        // the text is what pi writes: one JSON.stringify per line
        expect(fork.text).toBe([fork.header, ...fork.entries].map((e) => JSON.stringify(e) + "\n").join(""));
        const reread = Session.fromText(fork.text, { reader: "ca" });
        expect(reread.diagnostics().filter((d) => d.severity === "error")).toEqual([]);
      }
    });

  it("loads like the harness (pi-agent-core 0.83)", () => {
    const harness = Session.fromText(text, { reader: "hx" });
    const refusal = harness.rulesChoice.harnessError;
    if (!hx.load.ok) {
      expect(refusal).not.toBeNull();
      expect(hx.load.error.endsWith(`: ${refusal}`)).toBe(true);
      return;
    }
    if (hx.load.fileLeafError) {
      expect(hx.load.fileLeafError).toBe(`SessionError: ${refusal}`);
    } else {
      expect(refusal).toBeNull();
      const leaf = harness.tree.leaf("hx");
      expect(leaf === null ? null : names.name(leaf)).toBe(hx.load.fileLeafId);
    }
    expect(harness.tree.entries.length).toBe(hx.load.entryCount);
    expect(harness.name).toBe(hx.load.sessionName);
    const labels: Golden = {};
    for (const [target, state] of harness.labels("hx")) labels[names.name(target)] = state.label;
    expect(labels).toEqual(hx.labels);
  });

  if (hx.load.ok)
    it("has the harness's branch, context and settings at every entry", () => {
      const harness = Session.fromText(text, { reader: "hx" });
      if (hx.fileLeaf && !hx.fileLeaf.error) compareRecord(ourRecord(harness, "hx", harness.tree.leaf("hx")!, names, original), hx.fileLeaf);
      for (const [name, record] of Object.entries(hx.leaves as Golden)) {
        compareRecord(ourRecord(harness, "hx", names.id(name), names, original), record);
      }
    });

  if (hx.load.ok && hx.forks && Object.keys(hx.forks as Golden).length > 0)
    it("forks like the harness's repo.fork, at an entry and before a user message", () => {
      const harness = Session.fromText(text, { reader: "hx" });
      let compared = 0;
      for (const [name, record] of Object.entries(hx.forks as Golden)) {
        for (const position of ["at", "before"] as const) {
          const expected = record[position];
          const run = () =>
            harness.fork(
              names.id(name),
              { sessionId: "<new-session-id>", timestamp: "2026-12-02T10:11:12.131Z", sourcePath: "<source-session-file>", position },
              "hx",
            );
          if (expected === undefined) {
            // pi forks "before" only at a user message (the goldens leave out one whose walk never ends)
            const entry = harness.tree.get(names.id(name));
            const user = entry?.type === "message" && (entry.message as { role?: unknown } | undefined)?.role === "user";
            if (position === "before" && !user) expect(run, `${name} before`).toThrow(/is not a user message/);
            continue;
          }
          compared++;
          if (expected.nonTerminating) {
            expect(run, `${name} ${position}: pi never returns`).toThrow(SessionQueryError);
            continue;
          }
          if (expected.error) {
            // pi's walk up meets an entry the file does not hold, or the fork it wrote cannot be opened again (a copied
            // leaf entry moves the cursor to an entry the fork does not hold)
            const message = expected.error.replace(/^SessionError: /, "");
            let fork;
            try {
              fork = run();
            } catch (error) {
              expect(String(error), `${name} ${position}`).toContain(message);
              continue;
            }
            expect(Session.fromText(fork.text, { reader: "hx" }).rulesChoice.harnessError, `${name} ${position}: reopened`).toContain(message);
            continue;
          }
          const fork = run();
          expect({ ...fork.header, timestamp: "<fork-time>" }, `${name} ${position}: header`).toEqual(expected.header);
          expect(
            fork.entries.map((e) => names.name(e.id as string)),
            `${name} ${position}: entries`,
          ).toEqual(expected.entries);
          const kept = new Set(fork.entries.map((e) => e.id));
          const dangling = fork.entries.filter((e) => typeof e.parentId === "string" && !kept.has(e.parentId)).map((e) => names.name(e.id as string));
          expect(dangling, `${name} ${position}: dangling parents`).toEqual(expected.danglingParents);
          // the copies are verbatim: each line is the source entry as pi stringifies it
          for (const entry of fork.entries) expect(JSON.stringify(entry)).toBe(JSON.stringify(harness.tree.full(harness.tree.get(entry.id as string)!)));
          const reread = Session.fromText(fork.text, { reader: "hx" });
          const leaf = reread.tree.leaf("hx");
          expect(leaf === null ? null : names.name(leaf), `${name} ${position}: leaf`).toBe(expected.leafId);
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
});

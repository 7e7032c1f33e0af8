import { describe, expect, it } from "vitest";
import { familyRows, filterSessions, groupByProject, machinesOf } from "./group-sessions";
import type { LibrarySession } from "./library-types";

const session = (path: string, cwd: string | null, name: string | null): LibrarySession => ({
  path,
  project: path.includes("/") ? path.slice(0, path.indexOf("/")) : "",
  id: path,
  cwd,
  timestamp: null,
  name,
  named: false,
  entryCount: 1,
  size: 10,
  mtime: "2026-01-01T00:00:00.000Z",
  hasHeader: cwd !== null,
});

const list = [
  session("--a--/1.jsonl", "/home/dev/a", "Fix the build"),
  session("--b--/2.jsonl", "/home/dev/b", "Write docs"),
  session("--a--/3.jsonl", "/home/dev/a", "Refactor parser"),
  session("--c--/4.jsonl", null, null),
  session("top.jsonl", null, "loose file"),
  session("--b--/headerless.jsonl", null, "no header"),
];

describe("groupByProject", () => {
  it("groups by cwd in order of first appearance, keeping order inside groups", () => {
    const groups = groupByProject(list);
    expect(groups.map((g) => g.key)).toEqual(["/home/dev/a", "/home/dev/b", "--c--", "(top level)"]);
    expect(groups[0]!.sessions.map((s) => s.path)).toEqual(["--a--/1.jsonl", "--a--/3.jsonl"]);
  });

  it("puts a headerless file with the other sessions of its folder", () => {
    const b = groupByProject(list).find((g) => g.key === "/home/dev/b")!;
    expect(b.sessions.map((s) => s.path)).toEqual(["--b--/2.jsonl", "--b--/headerless.jsonl"]);
  });
});

describe("filterSessions", () => {
  it("matches name, cwd and path, every word, ignoring case", () => {
    expect(filterSessions(list, "BUILD").map((s) => s.path)).toEqual(["--a--/1.jsonl"]);
    expect(filterSessions(list, "dev/b").map((s) => s.path)).toEqual(["--b--/2.jsonl"]);
    expect(filterSessions(list, "--c--").map((s) => s.path)).toEqual(["--c--/4.jsonl"]);
    expect(filterSessions(list, "home parser").map((s) => s.path)).toEqual(["--a--/3.jsonl"]);
    expect(filterSessions(list, "  ")).toHaveLength(6);
    expect(filterSessions(list, "nothing-like-this")).toEqual([]);
  });
});

describe("familyRows", () => {
  const at = (path: string, hour: number, forkOf?: string): LibrarySession => ({
    ...session(path, "/p", path),
    timestamp: `2026-01-01T${String(hour).padStart(2, "0")}:00:00.000Z`,
    ...(forkOf ? { forkOf: { path: forkOf, name: forkOf } } : {}),
  });

  it("puts forks under their source, by newest activity of each subtree, ties in input order", () => {
    // newest first, as the library lists them
    const listed = [at("f2", 9, "s1"), at("f1-1", 8, "f1"), at("s2", 7), at("f1", 5, "s1"), at("s1", 1), at("lost", 0, "elsewhere")];
    expect(familyRows(listed).map((r) => [r.session.path, r.depth])).toEqual([
      ["s1", 0],
      ["f2", 1],
      ["f1", 1],
      ["f1-1", 2],
      ["s2", 0],
      ["lost", 0],
    ]);
  });

  it("lists every session once, even in a loop of links", () => {
    const rows = familyRows([at("a", 2, "b"), at("b", 1, "a")]);
    expect(rows.map((r) => r.session.path).sort()).toEqual(["a", "b"]);
  });

  it("groups keep both orders: sessions newest first, rows as family trees", () => {
    const [group] = groupByProject([at("f", 9, "s"), at("s", 1)]);
    expect(group!.sessions.map((s) => s.path)).toEqual(["f", "s"]);
    expect(group!.rows.map((r) => [r.session.path, r.depth])).toEqual([
      ["s", 0],
      ["f", 1],
    ]);
  });
});

describe("an archive's library", () => {
  const on = (machine: string, rel: string, cwd: string | null): LibrarySession => ({ ...session(rel, cwd, rel), path: `${machine}/${rel}`, machine });
  const archived = [
    on("laptop", "--a--/1.jsonl", "/home/dev/a"),
    on("ci-7", "--a--/2.jsonl", "/home/dev/a"),
    on("laptop", "--a--/headerless.jsonl", null),
    on("ci-7", "--b--/3.jsonl", "/home/dev/b"),
    on("ci-7", "--a--/headerless.jsonl", null),
  ];

  it("groups by machine, then project: one project on two machines is two groups, a headerless file joins its machine's", () => {
    const groups = groupByProject(archived);
    expect(groups.map((g) => [g.machine, g.cwd, g.sessions.map((s) => s.path)])).toEqual([
      ["laptop", "/home/dev/a", ["laptop/--a--/1.jsonl", "laptop/--a--/headerless.jsonl"]],
      ["ci-7", "/home/dev/a", ["ci-7/--a--/2.jsonl", "ci-7/--a--/headerless.jsonl"]],
      ["ci-7", "/home/dev/b", ["ci-7/--b--/3.jsonl"]],
    ]);
    expect(new Set(groups.map((g) => g.key)).size).toBe(3);
  });

  it("names its machines once each, sorted; a directory's library has none", () => {
    expect(machinesOf(archived)).toEqual(["ci-7", "laptop"]);
    expect(machinesOf(list)).toEqual([]);
    expect(groupByProject(list).every((g) => g.machine === undefined)).toBe(true);
  });
});

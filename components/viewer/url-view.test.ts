import { beforeEach, describe, expect, it } from "vitest";
import { Session } from "@/lib/session";
import { SHARE_FORMAT, type ShareManifest } from "@/lib/share/manifest";
import { viewer } from "./store";
import { urlView } from "./url-view";
import { viewSearch, withContextParams, withFindParams, withReadingParams } from "./view-params";

const line = (o: object) => JSON.stringify(o) + "\n";
const user = (id: string, parentId: string | null) =>
  line({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: id, timestamp: 1 } });
// a → b → c, and b → d (the leaf: the last line)
const TEXT =
  line({ type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" }) +
  user("a", null) +
  user("b", "a") +
  user("c", "b") +
  user("d", "b");
const SOURCE = { kind: "server", path: "--w--/s.jsonl" } as const;

const share = (entryId: string | null, tab: ShareManifest["tab"]): ShareManifest => ({
  format: SHARE_FORMAT,
  version: 1,
  scope: "session",
  fileName: "s.jsonl",
  title: null,
  entryId,
  tab,
  createdAt: "2026-01-01T00:00:00.000Z",
  generator: "test",
  redaction: null,
  images: null,
  lines: 5,
  bytes: TEXT.length,
});

/** The URL url-sync writes for the store as it is. */
function writtenUrl(): string {
  const s = viewer.get();
  const compare = s.compare && "b" in s.compare ? s.compare : null;
  const search = compare ? viewSearch(SOURCE, compare.a, s.tab, compare.b) : viewSearch(SOURCE, s.selectedId, s.tab);
  return withReadingParams(withContextParams(withFindParams(search, s.searchQuery, s.treeFilter), s.contextView, s.compactionSettings), s.reading);
}

let session: Session;
beforeEach(() => {
  session = Session.fromText(TEXT);
  viewer.reset();
  viewer.startLoading(SOURCE, "s.jsonl", 0);
  viewer.sessionReady(session, "a");
});

describe("urlView", () => {
  it("reads back every part of the view url-sync writes", () => {
    viewer.select("c");
    viewer.setTab("context");
    viewer.setSearchQuery("needle");
    viewer.setTreeFilter({ mode: "user-only", hiddenTypes: new Set(["label"]), hiddenRoles: new Set(["toolResult"]) });
    viewer.setContextView("llm");
    viewer.setCompactionSettings({ reserveTokens: 1000, keepRecentTokens: 2000, contextWindow: 50000 });
    viewer.setReading({ thinking: false, outputs: true, hidden: true });
    const s = viewer.get();
    expect(urlView(writtenUrl(), session, null)).toEqual({
      selectedId: "c",
      tab: "context",
      compare: null,
      searchQuery: "needle",
      treeFilter: s.treeFilter,
      contextView: "llm",
      compactionSettings: s.compactionSettings,
      reading: s.reading,
    });
  });

  it("reads a comparison as its first entry selected", () => {
    viewer.compare("c", "d");
    expect(urlView(writtenUrl(), session, null)).toMatchObject({ selectedId: "c", compare: { a: "c", b: "d" } });
  });

  it("falls back as a load does: the leaf and the entry tab, or the entry and tab a share was made at", () => {
    expect(urlView("?file=x&entry=gone&tab=bogus", session, null)).toMatchObject({ selectedId: "d", tab: "entry" });
    expect(urlView("", session, share("b", "path"))).toMatchObject({ selectedId: "b", tab: "path" });
    expect(urlView("?entry=c&tab=stats", session, share("b", "path"))).toMatchObject({ selectedId: "c", tab: "stats" });
    expect(urlView("", session, share("gone", null))).toMatchObject({ selectedId: "d", tab: "entry" });
  });

  it("drops a comparison with an entry the session does not hold, or when the entry itself fell back", () => {
    expect(urlView("?entry=c&compare=gone", session, null).compare).toBeNull();
    expect(urlView("?entry=gone&compare=c", session, null).compare).toBeNull();
  });
});

describe("viewer.followUrl", () => {
  it("shows what a URL met again says (Back, Forward, another #entry=)", () => {
    viewer.select("c");
    viewer.setTab("path");
    const atC = writtenUrl();
    viewer.select("d");
    viewer.setTab("stats");
    viewer.setSearchQuery("x");
    viewer.followUrl(urlView(atC, session, null));
    expect(viewer.get()).toMatchObject({ selectedId: "c", tab: "path", searchQuery: "" });
  });

  it("changes nothing, and tells no one, when the store already shows the URL", () => {
    viewer.setTreeFilter({ mode: null, hiddenTypes: new Set(["label"]), hiddenRoles: new Set() });
    const before = viewer.get();
    let told = 0;
    const unsubscribe = viewer.subscribe(() => told++);
    viewer.followUrl(urlView(writtenUrl(), session, null));
    unsubscribe();
    expect(told).toBe(0);
    expect(viewer.get()).toBe(before);
  });

  it("keeps the unchanged parts' objects when another part changes", () => {
    viewer.setTreeFilter({ mode: "no-tools", hiddenTypes: new Set(), hiddenRoles: new Set() });
    const filter = viewer.get().treeFilter;
    const settings = viewer.get().compactionSettings;
    const url = writtenUrl().replace("entry=a", "entry=c");
    viewer.followUrl(urlView(url, session, null));
    expect(viewer.get().selectedId).toBe("c");
    expect(viewer.get().treeFilter).toBe(filter);
    expect(viewer.get().compactionSettings).toBe(settings);
  });

  it("opens and closes a comparison; the selection moved on within the same comparison stays", () => {
    viewer.compare("c", "d");
    const comparing = writtenUrl();
    viewer.select("a");
    viewer.followUrl(urlView(comparing, session, null));
    expect(viewer.get()).toMatchObject({ selectedId: "a", compare: { a: "c", b: "d" } });
    viewer.followUrl(urlView("?file=--w--%2Fs.jsonl&entry=b", session, null));
    expect(viewer.get()).toMatchObject({ selectedId: "b", compare: null });
    viewer.followUrl(urlView(comparing, session, null));
    expect(viewer.get()).toMatchObject({ selectedId: "c", compare: { a: "c", b: "d" } });
  });

  it("keeps a 'Compare with…' waiting on the entry still selected, and drops it when the selection moves", () => {
    viewer.select("c");
    viewer.startComparePick();
    viewer.followUrl(urlView("?file=--w--%2Fs.jsonl&entry=c&tab=path", session, null));
    expect(viewer.get()).toMatchObject({ selectedId: "c", tab: "path", compare: { pickFrom: "c" } });
    viewer.followUrl(urlView("?file=--w--%2Fs.jsonl&entry=b", session, null));
    expect(viewer.get()).toMatchObject({ selectedId: "b", compare: null });
  });

  it("stops following a live session's leaf when the URL selects another entry, as a click does", () => {
    viewer.setFollow(true);
    viewer.followUrl(urlView("?file=--w--%2Fs.jsonl&entry=d", session, null));
    expect(viewer.get()).toMatchObject({ selectedId: "d", follow: true });
    viewer.followUrl(urlView("?file=--w--%2Fs.jsonl&entry=b", session, null));
    expect(viewer.get()).toMatchObject({ selectedId: "b", follow: false });
  });
});

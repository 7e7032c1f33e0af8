import { describe, expect, it } from "vitest";
import { planFor } from "./load-plan";
import { setPendingUpload } from "@/lib/client/pending-upload";
import { readViewParams } from "./view-params";

const plan = (query: string, samples = false, sessionsDir: string | null = "/home/dev/.pi/agent/sessions") => {
  const params = readViewParams(new URLSearchParams(query));
  return planFor({ params, samples, fileOnDisk: sessionsDir && params.file ? `${sessionsDir}/${params.file}` : null });
};

describe("planFor", () => {
  it("loads a library file through the raw API, keeping the deep-linked entry and tab", () => {
    const p = plan("file=--a--%2Fx%20y.jsonl&entry=e1&tab=context");
    expect(p).toMatchObject({
      kind: "load",
      target: {
        request: { kind: "url", url: "/api/sessions/raw?path=--a--%2Fx%20y.jsonl" },
        source: { kind: "server", path: "--a--/x y.jsonl", absolutePath: "/home/dev/.pi/agent/sessions/--a--/x y.jsonl" },
        fileName: "x y.jsonl",
        entryId: "e1",
        tab: "context",
      },
    });
  });

  it("marks files of the sample library as samples, without a disk path", () => {
    const p = plan("file=--a--%2Fx.jsonl", true, null);
    expect(p.kind === "load" && p.target.source).toEqual({ kind: "sample", path: "--a--/x.jsonl" });
  });

  it("fetches ?src= URLs as they are and names them by their last path segment", () => {
    const p = plan(`src=${encodeURIComponent("https://example.test/s/abc.jsonl?token=1")}`);
    expect(p).toMatchObject({ kind: "load", target: { request: { kind: "url", url: "https://example.test/s/abc.jsonl?token=1" }, fileName: "abc.jsonl" } });
  });

  it("opens a handed-over upload by name, and asks again when it is gone", () => {
    expect(plan("upload=mine.jsonl")).toEqual({ kind: "upload-lost", name: "mine.jsonl" });
    const file = new File(["{}\n"], "mine.jsonl");
    setPendingUpload(file);
    const p = plan("upload=mine.jsonl&entry=x");
    expect(p).toMatchObject({
      kind: "load",
      target: { request: { kind: "file", file }, source: { kind: "upload", name: "mine.jsonl", size: 3 }, entryId: "x" },
    });
    expect(plan("upload=other.jsonl")).toEqual({ kind: "upload-lost", name: "other.jsonl" });
  });

  it("has nothing to load without a source", () => {
    expect(plan("entry=x")).toEqual({ kind: "nothing" });
  });
});

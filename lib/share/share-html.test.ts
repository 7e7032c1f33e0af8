import { describe, expect, it } from "vitest";
import { SHARE_TITLE_CHARS } from "@/lib/session/features/title";
import { embedShare, extractShare } from "./share-html";

const TEMPLATE = '<!doctype html><title>pi session viewer</title><script type="application/octet-stream" id="pi-share"></script>';
const titleOf = (html: string) => /<title>([^]*?)<\/title>/.exec(html)![1]!;

describe("embedShare", () => {
  it("puts the title in <title> on one line, escaped, and the payload in the data block", () => {
    const html = embedShare(TEMPLATE, "abc", "  fix\n the <b> & build ");
    expect(titleOf(html)).toBe("fix the &lt;b&gt; &amp; build · pi session viewer");
    expect(extractShare(html)).toBe("abc");
  });

  it("cuts a long title at the share title's length", () => {
    const title = titleOf(embedShare(TEMPLATE, "abc", "word ".repeat(100)));
    const text = title.slice(0, -" · pi session viewer".length);
    expect(text).toHaveLength(SHARE_TITLE_CHARS);
    expect(text.endsWith("word…")).toBe(true);
  });

  it("keeps the generic title without a title or with only whitespace", () => {
    expect(titleOf(embedShare(TEMPLATE, "abc", null))).toBe("pi session viewer");
    expect(titleOf(embedShare(TEMPLATE, "abc", " \n "))).toBe("pi session viewer");
  });
});

import { describe, expect, it } from "vitest";
import { isImageData } from "./image-data";
import { redactJsonValue } from "./redact";
import { compileRedaction } from "./redaction-rules";

/** a real 1×1 PNG, as pi stores a pasted screenshot */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const JPEG = "/9j/4AAQSkZJRgABAQAAAQ==";
const GIF = "R0lGODlhAAAAAAAAAAAAAA==";
const WEBP = "UklGRiQAAABXRUJQVlA4IAAAAAA=";
const WAV = "UklGRiQAAABXQVZFZm10IAAAAAA=";
const AWS_KEY = ["AKIA", "QWERTYUIOP2345AS"].join("");

describe("isImageData", () => {
  it.each([PNG, JPEG, GIF, WEBP])("knows %s for an image", (data) => {
    expect(isImageData(data)).toBe(true);
  });

  it.each([
    ["base64 of another format", WAV],
    ["a key that happens to be base64", AWS_KEY],
    ["an image's start with text after it", `${PNG.slice(0, 20)} and then words`],
    ["text", "a screenshot of the error"],
    ["too short to say", "iVBORw0KGgo="],
  ])("does not take %s for one", (_what, data) => {
    expect(isImageData(data)).toBe(false);
  });
});

describe("image data under redaction", () => {
  const literal = PNG.slice(60, 65);
  const rules = compileRedaction({ literals: [literal] });
  if ("errors" in rules) throw new Error("rules");

  it("is left whole by a literal that occurs in it, where the same literal in text is masked", () => {
    const message = {
      role: "user",
      content: [
        { type: "text", text: `about ${literal}` },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
    };
    const counts = {};
    const out = redactJsonValue({ type: "message", id: "m", message }, counts, rules) as { message: typeof message };
    expect(out.message.content).toEqual([
      { type: "text", text: "about [REDACTED:literal-1]" },
      { type: "image", data: PNG, mimeType: "image/png" },
    ]);
    expect(counts).toEqual({ "literal-1": 1 });
  });

  it("is masked when it is not an image, so an image block carries no text past the rules", () => {
    const out = redactJsonValue({ type: "custom", data: { type: "image", data: AWS_KEY } }, {}, rules) as { data: { data: string } };
    expect(out.data.data).toBe("[REDACTED:aws-access-key-id]");
  });
});

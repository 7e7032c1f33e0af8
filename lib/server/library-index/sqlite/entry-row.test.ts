import { describe, expect, it } from "vitest";
import { entryRow } from "./entry-row";

const MODEL = 7;
const modelOf = (message: Record<string, unknown>) => entryRow(1, 1, "e", { type: "message", id: "e", message }, 0, 10).values[MODEL];

describe("entryRow", () => {
  it("keeps an assistant message's model as every view names it", () => {
    expect(modelOf({ role: "assistant", provider: "anthropic", model: "claude" })).toBe("anthropic/claude");
    // a part that is missing, empty or no string is left out; with neither there is no model
    expect(modelOf({ role: "assistant", model: "claude" })).toBe("claude");
    expect(modelOf({ role: "assistant", provider: { toString: 1 }, model: "claude" })).toBe("claude");
    expect(modelOf({ role: "assistant", provider: "anthropic", model: "" })).toBe("anthropic");
    expect(modelOf({ role: "assistant", provider: "", model: 3 })).toBeNull();
    expect(modelOf({ role: "user", provider: "anthropic", model: "claude" })).toBeNull();
  });
});

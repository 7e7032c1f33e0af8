import { describe, expect, it } from "vitest";
import { actionForKey, GRAPH_KEYS, keyLabel, keyName, type KeyLike } from "./keys";

const press = (key: string, mods: Partial<KeyLike> = {}): KeyLike => ({ key, ctrlKey: false, altKey: false, metaKey: false, shiftKey: false, ...mods });

function eventFor(binding: string): KeyLike {
  const parts = binding.split("+");
  const key = parts.pop()!;
  return press(key, { ctrlKey: parts.includes("Ctrl"), altKey: parts.includes("Alt"), shiftKey: parts.includes("Shift") });
}

describe("graph key map", () => {
  it("maps every key listed in the help back to its action", () => {
    for (const binding of GRAPH_KEYS) for (const key of binding.keys) expect(actionForKey(eventFor(key))).toBe(binding.action);
  });

  it("gives each key one action", () => {
    const keys = GRAPH_KEYS.flatMap((b) => b.keys);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("follows pi's /tree for branch folding, with Cmd standing in for Ctrl", () => {
    expect(actionForKey(press("ArrowLeft", { ctrlKey: true }))).toBe("foldOrUp");
    expect(actionForKey(press("ArrowLeft", { metaKey: true }))).toBe("foldOrUp");
    expect(actionForKey(press("ArrowRight", { altKey: true }))).toBe("unfoldOrDown");
    expect(actionForKey(press("ArrowLeft"))).toBe("previousSibling");
  });

  it("ignores Shift on printable keys and unknown keys", () => {
    expect(actionForKey(press("?", { shiftKey: true }))).toBe("help");
    expect(keyName(press("ArrowUp", { shiftKey: true }))).toBe("Shift+ArrowUp");
    expect(actionForKey(press("ArrowUp", { shiftKey: true }))).toBeNull();
    expect(actionForKey(press("x"))).toBeNull();
  });

  it("prints keys with arrows and names", () => {
    expect(keyLabel("Ctrl+ArrowLeft")).toBe("Ctrl+←");
    expect(keyLabel(" ")).toBe("Space");
  });
});

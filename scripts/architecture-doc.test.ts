// docs/ARCHITECTURE.md is read by newcomers before the code: its diagram must name every folder there is, and
// every path it or its text names must exist, so a move or a rename that forgets the document fails here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FOLDERS } from "./layers.mjs";

const ROOT = path.resolve(__dirname, "..");
const DOC = readFileSync(path.join(ROOT, "docs/ARCHITECTURE.md"), "utf8");
const DIAGRAM = DOC.slice(DOC.indexOf("```\n") + 4, DOC.indexOf("```\n", DOC.indexOf("```\n") + 4));

/** every file and folder of the code, as repository paths: the text names them relative to the folder it speaks of */
const PLACES = ["lib", "components", "app", "scripts", "e2e", "bench", "docs"].flatMap((top) => [
  top,
  ...readdirSync(path.join(ROOT, top), { recursive: true, encoding: "utf8" }).map((file) => `${top}/${file.split(path.sep).join("/")}`),
]);
const exists = (named: string) => existsSync(path.join(ROOT, named)) || PLACES.some((place) => place.endsWith(`/${named}`));
const subfolders = (folder: string) =>
  readdirSync(path.join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "testing")
    .map((entry) => entry.name);

describe("docs/ARCHITECTURE.md", () => {
  it("draws every folder the layers name, and every step of lib/session", () => {
    for (const folder of FOLDERS.filter((name) => name !== "scripts")) expect(DIAGRAM, folder).toMatch(new RegExp(`(^|\\s)${folder}/?[:\\s]`, "m"));
    for (const step of subfolders("lib/session")) expect(DIAGRAM, `lib/session/${step}`).toContain(`${step}/`);
  });

  it("names only folders and files that exist", () => {
    const named = new Set<string>();
    for (const [, place] of DIAGRAM.matchAll(/((?:lib|app|components|scripts)(?:\/[\w.-]+)*\/?|[\w.-]+\.ts)/g)) named.add(place!);
    for (const [, code] of DOC.matchAll(/`([^`\s]+)`/g)) if (/^[\w.-]+(\/[\w.-]*)+$|^[\w-]+\.(ts|mjs|cjs)$/.test(code!)) named.add(code!);
    const missing = [...named].filter((place) => !exists(place.replace(/\/$/, "")) && !/<|\*/.test(place));
    expect(missing).toEqual([]);
  });
});

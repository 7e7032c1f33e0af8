// The layers are one list (scripts/layers.mjs): ESLint's rules, the browser-only typecheck and docs/ARCHITECTURE.md
// must say what it says, file by file.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { BROWSER_TSCONFIG, browserTsconfigText } from "./browser-tsconfig.mjs";
import { FENCES, LAYERS, PURE } from "./layers.mjs";

const ROOT = path.resolve(__dirname, "..");
const isTestSupport = (file: string) => /\.test\.tsx?$/.test(file) || file.split("/").includes("testing");

/** Every TypeScript source under `folder` (repo-relative paths), tests and test helpers aside. */
function sources(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .map((file) => `${folder}/${file.split(path.sep).join("/")}`)
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts") && !isTestSupport(file));
}

const isPure = (file: string) => PURE.some((place) => file === place || file.startsWith(`${place}/`));
const ALL = ["lib", "components", "app"].flatMap(sources);

describe("the one list of layers", () => {
  it("names folders and files that exist", () => {
    for (const place of PURE)
      expect(
        ALL.some((file) => file === place || file.startsWith(`${place}/`)),
        place,
      ).toBe(true);
  });

  it("is what tsconfig.session.json says, as scripts/browser-tsconfig.mjs writes it", async () => {
    expect(readFileSync(BROWSER_TSCONFIG, "utf8"), "run node scripts/browser-tsconfig.mjs").toBe(await browserTsconfigText());
    const { config } = ts.readConfigFile(BROWSER_TSCONFIG, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
    const checked = parsed.fileNames.map((file) => path.relative(ROOT, file).split(path.sep).join("/")).filter((file) => !file.endsWith(".d.ts"));
    expect(checked.sort()).toEqual(ALL.filter((file) => file.endsWith(".ts") && isPure(file)).sort());
  });

  it("is what ESLint holds pure: no Node, React, Next or React Flow there, and only there", async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const bansNode = async (file: string) =>
      JSON.stringify((await eslint.calculateConfigForFile(file)).rules?.["no-restricted-imports"] ?? null).includes("node:");
    const bansReact = async (file: string) =>
      JSON.stringify((await eslint.calculateConfigForFile(file)).rules?.["no-restricted-imports"] ?? null).includes("react-dom");
    const wrong: string[] = [];
    for (const file of ALL) if ((await bansNode(file)) !== isPure(file)) wrong.push(file);
    expect(wrong).toEqual([]);
    // their tests and test helpers may read files, but not reach into the UI
    for (const place of PURE.filter((p) => !/\.tsx?$/.test(p))) {
      for (const file of [`${place}/x.test.ts`, `${place}/testing/x.ts`]) {
        expect(await bansNode(file), file).toBe(false);
        expect(await bansReact(file), file).toBe(true);
      }
    }
  }, 120_000);

  it("fences a folder off from its neighbours: ESLint refuses the import, and none is there", async () => {
    const eslint = new ESLint({ cwd: ROOT });
    for (const [folder, banned] of Object.entries(FENCES)) {
      for (const other of banned) {
        const target = sources(other)[0]!;
        const relative = path.posix.relative(folder, target).replace(/\.tsx?$/, "");
        const [result] = await eslint.lintText(`export * from "${relative}";\n`, { filePath: path.join(ROOT, folder, "fenced.ts") });
        expect(
          result!.messages.map((m) => m.ruleId),
          `${folder} importing ${target}`,
        ).toContain("import/no-restricted-paths");
      }
      const wrong = ALL.filter((file) => file.startsWith(`${folder}/`)).filter((file) => {
        const { importedFiles } = ts.preProcessFile(readFileSync(path.join(ROOT, file), "utf8"), true, true);
        return importedFiles.some(({ fileName }) => banned.some((other) => path.posix.join(path.posix.dirname(file), fileName).startsWith(`${other}/`)));
      });
      expect(wrong, folder).toEqual([]);
    }
  }, 60_000);

  it("is the table docs/ARCHITECTURE.md draws", () => {
    const doc = readFileSync(path.join(ROOT, "docs/ARCHITECTURE.md"), "utf8");
    const table = doc.slice(doc.indexOf("## Folders and what they may import"));
    const rows = new Map<string, { pure: string; may: string }>();
    for (const line of table.split("\n")) {
      const cells = line.split("|").map((cell) => cell.trim());
      const folder = /^`([^`]+)\/`$/.exec(cells[1] ?? "")?.[1];
      if (folder) rows.set(folder, { pure: cells[3]!, may: cells[4]! });
    }
    expect([...rows.keys()].sort()).toEqual([...Object.keys(LAYERS), "app"].sort());
    for (const [folder, row] of rows) {
      const named = [...row.may.matchAll(/`([a-z-]+(?:\/[a-z-]+)?)\/?`/g)].map((m) => m[1]); // folders, not the files named after them
      if (folder === "app") expect(row.may).toBe("anything");
      else expect(named.sort(), `${folder} may import`).toEqual([...(LAYERS[folder] ?? [])].sort());
      const pure = PURE.filter((place) => place === folder || place.startsWith(`${folder}/`));
      const expected = pure.length === 0 ? "no" : pure.includes(folder) ? "yes" : pure.map((place) => `\`${place.slice(folder.length + 1)}\``).join(", ");
      expect(row.pure, `${folder} pure`).toBe(expected);
    }
  });
});

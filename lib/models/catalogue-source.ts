// Reads pi's model catalogue from the installed @earendil-works/pi-ai packages (Node only: the generator and its test):
// the dependency (the newest), then the older releases pi's own packages bring (the oracles' pi-ai), for the models a
// newer catalogue dropped but sessions written back then still name.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ModelCatalogue } from "./model-catalogue";

interface PiAiModel {
  id: string;
  name?: string;
  contextWindow?: number;
  maxTokens?: number;
}
interface PiAiProviders {
  getBuiltinProviders(): string[];
  getBuiltinModels(provider: string): PiAiModel[];
  getBuiltinModelDataGeneratedAt(): number;
}

const MODULES = path.resolve(__dirname, "../../node_modules");
/** where npm puts each pi-ai: the dependency first, then the ones nested under pi's packages, newest first */
const PACKAGES = [
  "@earendil-works/pi-ai",
  "pi-coding-agent-0871/node_modules/@earendil-works/pi-ai",
  "pi-coding-agent-0861/node_modules/@earendil-works/pi-ai",
  "@earendil-works/pi-coding-agent/node_modules/@earendil-works/pi-ai",
];

export async function catalogueFromPiAi(): Promise<ModelCatalogue> {
  const models: ModelCatalogue["models"] = {};
  const versions: string[] = [];
  let generatedAt = "";
  for (const pkg of PACKAGES) {
    const dir = path.join(MODULES, pkg);
    if (!existsSync(path.join(dir, "package.json"))) continue;
    const version = (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
    const pi = (await import(pathToFileURL(path.join(dir, "dist/providers/all.js")).href)) as PiAiProviders;
    const newest = versions.length === 0;
    if (newest) generatedAt = new Date(pi.getBuiltinModelDataGeneratedAt()).toISOString();
    versions.push(version);
    for (const provider of pi.getBuiltinProviders()) {
      const byId = (models[provider] ??= {});
      for (const model of pi.getBuiltinModels(provider)) {
        if (Object.hasOwn(byId, model.id)) continue; // a newer catalogue already has it
        const row: ModelCatalogue["models"][string][string] = [model.contextWindow ?? 0, model.maxTokens ?? 0, model.name ?? model.id];
        if (!newest) row.push(version);
        byId[model.id] = row;
      }
    }
  }
  // sorted, so the generated file changes only where the catalogues do
  const sorted: ModelCatalogue["models"] = {};
  for (const provider of Object.keys(models).sort()) {
    sorted[provider] = Object.fromEntries(Object.entries(models[provider]!).sort(([a], [b]) => a.localeCompare(b)));
  }
  return { piAi: versions[0]!, older: versions.slice(1), generatedAt, models: sorted };
}

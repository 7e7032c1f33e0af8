// Reads pi's model catalogue from the installed @earendil-works/pi-ai (Node only: the generator and its test).
import { readFileSync } from "node:fs";
import path from "node:path";
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

export async function catalogueFromPiAi(): Promise<ModelCatalogue> {
  // the package exports no package.json: read the one npm installed at the repository's root
  const manifest = path.resolve(__dirname, "../../node_modules/@earendil-works/pi-ai/package.json");
  const version = (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
  const pi = (await import("@earendil-works/pi-ai/providers/all")) as unknown as PiAiProviders;
  const models: ModelCatalogue["models"] = {};
  for (const provider of [...pi.getBuiltinProviders()].sort()) {
    const byId: Record<string, [number, number, string]> = {};
    for (const model of [...pi.getBuiltinModels(provider)].sort((a, b) => a.id.localeCompare(b.id))) {
      byId[model.id] = [model.contextWindow ?? 0, model.maxTokens ?? 0, model.name ?? model.id];
    }
    models[provider] = byId;
  }
  return { piAi: version, generatedAt: new Date(pi.getBuiltinModelDataGeneratedAt()).toISOString(), models };
}

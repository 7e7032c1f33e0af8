/**
 * The models pi knows, by provider and id: the context window and output limit
 * pi's compaction and its context meter read. Generated from pi's own catalogue
 * (`@earendil-works/pi-ai`, the newest release, plus the models older releases
 * list and it dropped; see write-catalogue.ts), never edited by hand.
 */
export interface ModelCatalogue {
  /** the pi-ai version it was read from (the dependency) */
  piAi: string;
  /** older pi-ai releases whose models the newest no longer lists were added from, newest first */
  older: string[];
  /** when the newest pi-ai's catalogue data was generated */
  generatedAt: string;
  /** provider → model id → [contextWindow, maxTokens, name, the older pi-ai it is listed in when the newest drops it] */
  models: Record<string, Record<string, [number, number, string, string?]>>;
}

export interface ModelInfo {
  provider: string;
  id: string;
  name: string;
  contextWindow: number;
  maxTokens: number;
  /** the pi-ai release whose catalogue lists it */
  piAi: string;
}

/** The model pi's catalogue lists under `provider` and `id`; null when it does not (a custom model, a typo, a retired one). */
export function modelInfo(catalogue: ModelCatalogue, provider: string, id: string): ModelInfo | null {
  const row = Object.hasOwn(catalogue.models, provider) && Object.hasOwn(catalogue.models[provider]!, id) ? catalogue.models[provider]![id]! : null;
  return row ? { provider, id, contextWindow: row[0], maxTokens: row[1], name: row[2], piAi: row[3] ?? catalogue.piAi } : null;
}

/** The model a context names ({provider, modelId} as pi records it, fields unchecked); null when pi's catalogue has no such model. */
export function modelOfContext(catalogue: ModelCatalogue, model: { provider?: unknown; modelId?: unknown } | null): ModelInfo | null {
  return model && typeof model.provider === "string" && typeof model.modelId === "string" ? modelInfo(catalogue, model.provider, model.modelId) : null;
}

/** The catalogue itself, loaded on first use (a separate chunk in the browser: about a hundred kilobytes). */
export async function loadCatalogue(): Promise<ModelCatalogue> {
  return (await import("./catalogue.generated.json")).default as unknown as ModelCatalogue;
}

// How the viewer names a model pi records: "provider/model", the one way every view, export and total writes it.
import type { ModelRef } from "./types";

/**
 * "provider/model" of the model pi records as `provider` and `model` (a model_change's `modelId`, an assistant
 * message's `model`), each part only when it is a non-empty string: the other alone when one is missing, null when
 * both are.
 */
export function modelLabel(provider: unknown, model: unknown): string | null {
  const p = typeof provider === "string" ? provider : "";
  const m = typeof model === "string" ? model : "";
  return p && m ? `${p}/${m}` : p || m || null;
}

/** modelLabel of the model a context is in ({provider, modelId} as pi records it): "(unnamed)" when it names neither, null for no model. */
export function contextModelLabel(model: ModelRef | null): string | null {
  return model && (modelLabel(model.provider, model.modelId) ?? "(unnamed)");
}

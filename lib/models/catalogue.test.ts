import { describe, expect, it } from "vitest";
import { catalogueFromPiAi } from "./catalogue-source";
import { modelInfo, loadCatalogue } from "./model-catalogue";

describe("the model catalogue", () => {
  it("is what the installed @earendil-works/pi-ai lists (regenerate with write-catalogue.ts after updating it)", async () => {
    expect(await loadCatalogue()).toEqual(await catalogueFromPiAi());
  });

  it("answers a listed model's window and says null for one pi does not know", async () => {
    const catalogue = await loadCatalogue();
    const [provider, models] = Object.entries(catalogue.models).find(([, m]) => Object.keys(m).length > 0)!;
    const [id, [contextWindow, maxTokens, name]] = Object.entries(models)[0]!;
    expect(modelInfo(catalogue, provider, id)).toEqual({ provider, id, contextWindow, maxTokens, name });
    expect(contextWindow).toBeGreaterThan(0);
    expect(modelInfo(catalogue, provider, "no-such-model")).toBeNull();
    expect(modelInfo(catalogue, "constructor", "x")).toBeNull();
    expect(modelInfo(catalogue, provider, "constructor")).toBeNull();
  });
});

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
    expect(modelInfo(catalogue, provider, id)).toEqual({ provider, id, contextWindow, maxTokens, name, piAi: catalogue.piAi });
    expect(contextWindow).toBeGreaterThan(0);
    expect(modelInfo(catalogue, provider, "no-such-model")).toBeNull();
    expect(modelInfo(catalogue, "constructor", "x")).toBeNull();
    expect(modelInfo(catalogue, provider, "constructor")).toBeNull();
  });

  it("still knows a model the newest pi-ai dropped, by the older release that lists it", async () => {
    const catalogue = await loadCatalogue();
    const older = Object.entries(catalogue.models).flatMap(([provider, models]) =>
      Object.entries(models)
        .filter(([, row]) => row.length === 4)
        .map(([id, row]) => [provider, id, row[3]] as const),
    );
    expect(older.length).toBeGreaterThan(0);
    const [provider, id, version] = older[0]!;
    expect(catalogue.older).toContain(version);
    expect(modelInfo(catalogue, provider, id)?.piAi).toBe(version);
  });
});

// The models the generators answer with, and an assistant message's usage priced at a model's rates (cache reads
// at a tenth of input, cache writes at a quarter more), as pi records it.
import type { Rng } from "../lib/session/testing/rng";

export const MODELS = [
  { provider: "anthropic", model: "claude-sonnet-4-5", api: "anthropic-messages", inCost: 3, outCost: 15 },
  { provider: "anthropic", model: "claude-opus-4-5", api: "anthropic-messages", inCost: 5, outCost: 25 },
  { provider: "openai", model: "gpt-5.1-codex", api: "openai-responses", inCost: 1.25, outCost: 10 },
  { provider: "google", model: "gemini-3-pro-preview", api: "google-generative-ai", inCost: 2, outCost: 12 },
];

export type Model = (typeof MODELS)[number];

export function randomUsage(r: Rng, m: Model): Record<string, unknown> {
  const input = r.range(1, 6000);
  const output = r.range(20, 4000);
  const cacheRead = r.chance(0.85) ? r.range(5000, 160_000) : 0;
  const cacheWrite = r.chance(0.3) ? r.range(100, 30_000) : 0;
  const cost = {
    input: (input * m.inCost) / 1e6,
    output: (output * m.outCost) / 1e6,
    cacheRead: (cacheRead * m.inCost * 0.1) / 1e6,
    cacheWrite: (cacheWrite * m.inCost * 1.25) / 1e6,
    total: 0,
  };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
}

/**
 * The context size a provider's usage reports, as pi counts it (pi-coding-agent's compaction.js, the same in every
 * version read here): totalTokens, else the sum of its parts. The rules' token count and the tree's column of
 * reported sizes (tree/entry-shapes.ts) both read it, so it belongs to neither.
 */
// pi reads the fields without checking them; `any` keeps its JavaScript semantics (NaN, TypeError) exactly
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function calculateContextTokens(usage: any): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

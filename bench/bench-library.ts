// The generated library the library and archive benchmarks share: made once under a folder and used again while
// its settings (and the generator's version) are the same; and the mixed searches both ask of it.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { entrySearchText, searchWords } from "../lib/library/library-search";
import type { SearchFilters } from "../lib/server/library-index/library-index";
import { Rng } from "../lib/session/testing/rng";
import type { SessionEntry } from "../lib/session/types";
import { GENERATOR_VERSION, generateLibrary, type LibraryStats } from "./generate-library";

export interface BenchLibrarySettings {
  sessions: number;
  sizeMB: number;
  seed: number;
}

/** The library under `root` (its `sessions` folder), generated unless one with the same settings is there. */
export function benchLibrary(root: string, { sessions, sizeMB, seed }: BenchLibrarySettings): { dir: string; stats: LibraryStats } {
  const dir = path.join(root, "sessions");
  const marker = path.join(root, "library.json");
  const settings = { sessions, sizeMB, seed, generator: GENERATOR_VERSION };
  if (existsSync(marker)) {
    const kept = JSON.parse(readFileSync(marker, "utf8")) as { settings: typeof settings; stats: LibraryStats };
    if (JSON.stringify(kept.settings) === JSON.stringify(settings)) {
      console.log(`library: ${dir} (kept)`);
      return { dir, stats: kept.stats };
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const started = performance.now();
  const stats = generateLibrary(dir, { sessions, sizeMB, seed }, (done, total) => {
    if (done % 100 === 0 || done === total) process.stderr.write(`\r  generating ${done}/${total} sessions`);
  });
  process.stderr.write("\n");
  console.log(`library: ${dir}, generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  writeFileSync(marker, JSON.stringify({ settings, stats }));
  return { dir, stats };
}

/** The library the environment asks for: BENCH_SESSIONS (1000), BENCH_SIZE_MB (1000), BENCH_SEED (1). */
export function benchLibrarySettings(env: NodeJS.ProcessEnv = process.env): BenchLibrarySettings {
  return { sessions: Number(env.BENCH_SESSIONS ?? 1000), sizeMB: Number(env.BENCH_SIZE_MB ?? 1000), seed: Number(env.BENCH_SEED ?? 1) };
}

/**
 * Runs the bench file `script` again as a child (`script MODE ...args`), which measures its own peak memory, and
 * returns the JSON its last line of output holds. tsx's loader rides in execArgv: the child runs the file the same way.
 */
export function benchChild<T>(script: string, mode: string, args: readonly string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, mode, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop()!) as T) : reject(new Error(`${mode} child exited with ${code}`))));
  });
}

/** A search as the benches ask it: what kind it is, its words and its filters. */
export interface BenchQuery {
  kind: string;
  q: string;
  filters: SearchFilters;
}

/** 50 queries from the words of one project's sessions: common, rare, prefixes, phrases, two terms, filtered. */
export function mixedQueries(dir: string, stats: LibraryStats, seed: number): BenchQuery[] {
  const r = new Rng(seed * 7919);
  const counts = new Map<string, number>();
  const pairs: string[] = [];
  const folder = readdirSync(dir).sort()[0]!;
  let bytes = 0;
  for (const name of readdirSync(path.join(dir, folder)).sort()) {
    if (bytes > 40e6) break;
    const text = readFileSync(path.join(dir, folder, name), "utf8");
    bytes += text.length;
    for (const line of text.split("\n").slice(1)) {
      if (!line) continue;
      const words = searchWords(entrySearchText(JSON.parse(line) as SessionEntry));
      for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
      if (words.length > 3 && r.chance(0.01)) {
        const at = r.range(0, words.length - 2);
        pairs.push(`"${words[at]} ${words[at + 1]}"`);
      }
    }
  }
  const byCount = [...counts.entries()].filter(([w]) => /^[a-z]/.test(w)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const common = byCount.slice(0, 40).map(([w]) => w);
  const middle = byCount.slice(200, 3000).map(([w]) => w);
  const rare = byCount.filter(([w, n]) => n <= 2 && w.length >= 6).map(([w]) => w);
  const pick = (words: string[]) => r.pick(words);
  const month = Date.UTC(2025, r.range(3, 11), 1);
  const date = { from: month, to: month + 30 * 86_400_000 };
  const project = (i: number) => stats.projects[i % stats.projects.length]!;
  const queries: BenchQuery[] = [];
  const add = (kind: string, n: number, make: (i: number) => [string, SearchFilters?]) => {
    for (let i = 0; i < n; i++) {
      const [q, filters = {}] = make(i);
      queries.push({ kind, q, filters });
    }
  };
  add("common word", 6, (i) => [common[i * 3]!]);
  add("rare word", 6, () => [pick(rare)]);
  add("short prefix", 5, () => [pick(common.filter((w) => w.length >= 4)).slice(0, 3)]);
  add("long prefix", 5, () => [pick(middle.filter((w) => w.length >= 7)).slice(0, 5 + r.range(0, 2))]);
  add("phrase", 6, () => [pick(pairs)]);
  add("two terms", 6, (i) => [i % 2 ? `${pick(common)} ${pick(rare)}` : `${pick(common)} ${pick(middle)}`]);
  add("common + project", 2, (i) => [pick(common), { project: project(i) }]);
  add("common + role", 2, (i) => [pick(common), { role: i ? "user" : "toolResult" }]);
  add("middle + tool", 2, (i) => [pick(middle), { tool: i ? "bash" : "edit" }]);
  add("common + model", 2, (i) => [pick(common), { model: i ? "google/gemini-3-pro-preview" : "openai/gpt-5.1-codex" }]);
  add("common + dates", 2, () => [pick(common), date]);
  add("common + active", 2, () => [pick(common), { activeOnly: true }]);
  add("phrase + role", 1, () => [pick(pairs), { role: "assistant" }]);
  add("prefix + project + active", 1, () => [pick(middle).slice(0, 4), { project: project(3), activeOnly: true }]);
  add("two terms + tool + dates", 2, () => [`${pick(common)} ${pick(middle)}`, { tool: "read", ...date }]);
  return queries;
}

/** The `p` quantile of sorted figures (nearest rank). */
export const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

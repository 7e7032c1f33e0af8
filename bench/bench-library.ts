// The generated library the library and archive benchmarks share: made once under a folder and used again while
// its settings (and the generator's version) are the same.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
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

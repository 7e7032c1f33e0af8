// Where session files come from: the configured directory, and the bundled samples used when it holds none.
import os from "node:os";
import path from "node:path";

/** `PI_SESSIONS_DIR`, else pi's default `~/.pi/agent/sessions`; `~` is expanded, the result is absolute. */
export function sessionsDir(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.PI_SESSIONS_DIR?.trim();
  if (!configured) return path.join(os.homedir(), ".pi", "agent", "sessions");
  const expanded = configured === "~" || configured.startsWith("~/") ? path.join(os.homedir(), configured.slice(1)) : configured;
  return path.resolve(/*turbopackIgnore: true*/ expanded);
}

/** The sample sessions shipped with the app (public/samples, also served statically under /samples/). */
export function samplesDir(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "public", "samples");
}

/** The sessions dir as shown to the user: the home directory abbreviated to `~`. */
export function displayDir(dir: string): string {
  const home = os.homedir();
  return dir === home || dir.startsWith(home + path.sep) ? "~" + dir.slice(home.length) : dir;
}

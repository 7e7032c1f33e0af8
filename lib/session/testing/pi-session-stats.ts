/**
 * pi 1.6.0's `/session` totals (AgentSession.getSessionStats), run in Node for differential tests. agent-session.js
 * cannot be imported on Node 20 (its dependencies need a newer Node), so the method is taken out of the file with
 * TypeScript's parser and evaluated with pi's own usage-totals.js, over the entries pi's SessionManager reads.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

const DIST = path.resolve(__dirname, "../../../node_modules/pi-coding-agent-160/dist/core");

export interface PiSessionStats {
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
  cost: number;
  assistantMessages: number;
}

type StatsOf = (entries: readonly unknown[]) => PiSessionStats;

let loaded: Promise<StatsOf> | null = null;

/** pi's getSessionStats over `entries` (what its SessionManager.getEntries returns: every entry line but headers). */
export function loadPiSessionStats(): Promise<StatsOf> {
  return (loaded ??= (async () => {
    const file = path.join(DIST, "agent-session.js");
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    let method: string | null = null;
    const visit = (node: ts.Node) => {
      if (ts.isMethodDeclaration(node) && node.name.getText(source) === "getSessionStats") method = node.getText(source);
      else if (method === null) ts.forEachChild(node, visit);
    };
    visit(source);
    if (method === null) throw new Error(`getSessionStats not found in ${file}`);
    const totals = (await import(pathToFileURL(path.join(DIST, "usage-totals.js")).href)) as Record<string, unknown>;
    const make = new Function("createUsageTotals", "addUsageToTotals", `return { ${method} }.getSessionStats;`) as (
      create: unknown,
      add: unknown,
    ) => (this: unknown) => PiSessionStats;
    const stats = make(totals.createUsageTotals, totals.addUsageToTotals);
    return (entries) =>
      stats.call({ sessionManager: { getEntries: () => entries }, sessionFile: undefined, sessionId: "oracle", getContextUsage: () => undefined });
  })());
}

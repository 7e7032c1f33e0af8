/**
 * A and B in figures. "settings": model, thinking level, message count and
 * context size, differing rows marked; "tokens": provider usage over each
 * path and each divergent segment, with B − A.
 */
import { compactNumber, formatCost } from "@/components/inspector/UsageLine";
import { contextModelLabel, type Comparison, type Usage } from "@/lib/session";

interface Row {
  name: string;
  title: string;
  a: string;
  b: string;
  /** B − A, for numbers */
  delta?: number;
}

function usageRows(prefix: string, title: string, a: Usage, b: Usage): Row[] {
  const row = (name: string, pick: (u: Usage) => number): Row => ({
    name: `${prefix} ${name}`,
    title,
    a: compactNumber(pick(a)),
    b: compactNumber(pick(b)),
    delta: pick(b) - pick(a),
  });
  const rows = [
    row("input", (u) => u.input),
    row("output", (u) => u.output),
    row("cache read", (u) => u.cacheRead),
    row("cache write", (u) => u.cacheWrite),
    row("total", (u) => u.totalTokens),
  ];
  // a provider that reports no cache use would only add rows of zeros
  return [
    ...rows.filter((r) => r.name.endsWith("total") || r.a !== "0" || r.b !== "0"),
    { name: `${prefix} cost`, title, a: formatCost(a.cost), b: formatCost(b.cost) },
  ];
}

export function settingRows(result: Comparison): Row[] {
  const { a, b } = result;
  const size = (u: Usage | null) => (u ? u.totalTokens : 0);
  return [
    {
      name: "Model",
      title: "the model in force at the entry (pi's context)",
      a: contextModelLabel(a.model) ?? "none",
      b: contextModelLabel(b.model) ?? "none",
    },
    { name: "Thinking", title: "the thinking level in force at the entry", a: String(a.thinkingLevel), b: String(b.thinkingLevel) },
    { name: "Messages", title: "messages in the context", a: String(a.messageCount), b: String(b.messageCount), delta: b.messageCount - a.messageCount },
    {
      name: "Context size",
      title: "tokens of the last assistant reply in the context, as its provider reported them (input + output + cache)",
      a: a.lastUsage ? compactNumber(size(a.lastUsage)) : "—",
      b: b.lastUsage ? compactNumber(size(b.lastUsage)) : "—",
      delta: a.lastUsage && b.lastUsage ? size(b.lastUsage) - size(a.lastUsage) : undefined,
    },
  ];
}

export function tokenRows(result: Comparison): Row[] {
  return [
    ...usageRows("Path", "provider usage summed over root → entry", result.a.pathUsage, result.b.pathUsage),
    ...usageRows("Segment", "provider usage summed over the entries after the common ancestor", result.a.segmentUsage, result.b.segmentUsage),
  ];
}

const delta = (d: number | undefined) => (d === undefined || d === 0 ? "" : `${d > 0 ? "+" : "−"}${compactNumber(Math.abs(d))}`);

export function CompareFacts({ result, part }: { result: Comparison; part: "settings" | "tokens" }) {
  const rows = part === "settings" ? settingRows(result) : tokenRows(result);
  const caption = part === "settings" ? "Model, thinking level and context of A and B" : "Tokens";
  return (
    <table className="w-full border-t border-border text-[12px]" data-testid={`compare-${part}`}>
      <caption className={part === "settings" ? "sr-only" : "px-3 pt-2 pb-1 text-left text-[12px] font-semibold"}>{caption}</caption>
      <thead>
        <tr className="text-left text-[11px] text-muted">
          <th scope="col" className="w-32 px-3 py-1 font-medium">
            <span className="sr-only">Figure</span>
          </th>
          <th scope="col" className="px-2 py-1 font-medium">
            A
          </th>
          <th scope="col" className="px-2 py-1 font-medium">
            B
          </th>
          <th scope="col" className="px-3 py-1 text-right font-medium">
            B − A
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const differs = row.a !== row.b;
          return (
            <tr key={row.name} data-differs={differs ? "true" : "false"} className={differs && part === "settings" ? "bg-amber-50 dark:bg-amber-950/30" : ""}>
              <th scope="row" title={row.title} className="px-3 py-0.5 text-left font-normal whitespace-nowrap text-muted">
                {row.name}
              </th>
              <td className="max-w-48 truncate px-2 py-0.5 font-mono tabular-nums" title={row.a}>
                {row.a}
              </td>
              <td className={`max-w-48 truncate px-2 py-0.5 font-mono tabular-nums ${differs && part === "settings" ? "font-semibold" : ""}`} title={row.b}>
                {row.b}
              </td>
              <td className="px-3 py-0.5 text-right font-mono text-muted tabular-nums">{delta(row.delta)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

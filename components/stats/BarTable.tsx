"use client";

/**
 * A small horizontal bar chart drawn as a table: one row per item with its
 * name, a plain-SVG bar (stacked when there are several parts) and the
 * number, so screen readers read a table and sighted readers see bars.
 */

export interface BarPart {
  name: string;
  value: number;
  /** a CSS colour */
  color: string;
}

export interface BarRow {
  key: string;
  label: string;
  /** the full name, when `label` is shortened */
  title?: string;
  parts: BarPart[];
  /** the number printed at the end of the row */
  display: string;
}

const WIDTH = 120;
const HEIGHT = 10;

export function BarTable({ caption, rows, testId, legend }: { caption: string; rows: BarRow[]; testId: string; legend?: { name: string; color: string }[] }) {
  const max = Math.max(1, ...rows.map((r) => r.parts.reduce((sum, p) => sum + p.value, 0)));
  return (
    <figure className="flex flex-col gap-1.5" data-testid={testId}>
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2 text-[11px] font-semibold tracking-wide text-muted uppercase">
        {caption}
        {legend && (
          <span className="flex flex-wrap gap-2 font-normal tracking-normal normal-case">
            {legend.map((l) => (
              <span key={l.name} className="inline-flex items-center gap-1">
                <svg width={8} height={8} aria-hidden="true">
                  <rect width={8} height={8} rx={2} fill={l.color} />
                </svg>
                {l.name}
              </span>
            ))}
          </span>
        )}
      </figcaption>
      <table className="w-full border-collapse text-[12px]">
        <caption className="sr-only">{caption}</caption>
        <tbody>
          {rows.map((row) => {
            let x = 0;
            const total = row.parts.reduce((sum, p) => sum + p.value, 0);
            return (
              <tr key={row.key} data-key={row.key} data-value={total} className="align-middle">
                <th scope="row" className="max-w-[11rem] truncate py-0.5 pr-2 text-left font-mono text-[11.5px] font-normal" title={row.title ?? row.label}>
                  {row.label}
                </th>
                <td className="w-[120px] py-0.5">
                  <svg
                    width={WIDTH}
                    height={HEIGHT}
                    role="img"
                    aria-label={row.parts.map((p) => `${p.name} ${p.value.toLocaleString("en-US")}`).join(", ")}
                    className="block overflow-visible"
                  >
                    <rect width={WIDTH} height={HEIGHT} rx={2} className="fill-surface-2" />
                    {row.parts.map((p) => {
                      const w = (p.value / max) * WIDTH;
                      const rect = <rect key={p.name} x={x} width={w} height={HEIGHT} fill={p.color} />;
                      x += w;
                      return rect;
                    })}
                  </svg>
                </td>
                <td className="py-0.5 pl-2 text-right font-mono text-[11.5px] whitespace-nowrap text-muted tabular-nums">{row.display}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </figure>
  );
}

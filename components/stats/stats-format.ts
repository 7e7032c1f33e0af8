// How the Stats tab writes durations and token counts.

/** "2h 05m", "3m 07s", "12.4s"; "—" for no duration. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return "—";
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
  const s = Math.round(ms / 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  if (s < 3600) return `${Math.floor(s / 60)}m ${pad(s % 60)}s`;
  const h = Math.floor(s / 3600);
  if (h < 48) return `${h}h ${pad(Math.floor((s % 3600) / 60))}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** Entries of a count map, largest first (ties by name). */
export function byCount(map: Record<string, number>): [string, number][] {
  return Object.entries(map).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

// A determinate (or, without a total, indeterminate) progress bar.
import { cn } from "./cn";

export function ProgressBar({ value, max, label, className }: { value: number; max: number; label: string; className?: string }) {
  const known = max > 0;
  const pct = known ? Math.min(100, Math.max(0, (value / max) * 100)) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={known ? max : undefined}
      aria-valuenow={known ? value : undefined}
      className={cn("relative h-1.5 w-full overflow-hidden rounded-full bg-surface-2", className)}
    >
      <div
        className={cn("absolute inset-y-0 left-0 rounded-full bg-accent transition-[width] duration-150", !known && "w-1/3 animate-pulse")}
        style={known ? { width: `${pct}%` } : undefined}
      />
    </div>
  );
}

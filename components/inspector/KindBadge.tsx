/** The small coloured icon that says what an entry is: the graph's icon for the kind, on the inspector's tone. */
import { Icon } from "@/components/graph/icons";
import type { EntryLook, Tone } from "./entry-kind";

const TONES: Record<Tone, string> = {
  user: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300",
  assistant: "bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300",
  tool: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300",
  error: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300",
  bash: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  summary: "bg-orange-100 text-orange-800 dark:bg-orange-950 dark:text-orange-300",
  custom: "bg-teal-100 text-teal-800 dark:bg-teal-950 dark:text-teal-300",
  setting: "bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
  meta: "bg-pink-100 text-pink-800 dark:bg-pink-950 dark:text-pink-300",
  unknown: "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
};

export function KindBadge({ kind, className = "" }: { kind: EntryLook; className?: string }) {
  return (
    <span
      title={kind.label}
      aria-hidden="true"
      className={`inline-flex h-4 w-4 shrink-0 items-center justify-center rounded-[3px] ${TONES[kind.tone]} ${className}`}
    >
      <Icon name={kind.kind} className="h-2.5 w-2.5" />
    </span>
  );
}

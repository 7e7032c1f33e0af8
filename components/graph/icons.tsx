/**
 * The graph's glyphs: one small stroke icon per entry kind, plus the few
 * control icons the canvas uses. Colours per kind match the inspector's
 * palette (components/inspector/KindBadge.tsx) so a kind looks the same in
 * both panes.
 */
import type { ReactNode } from "react";
import type { EntryKind } from "@/lib/layout/describe";

const PATHS: Record<EntryKind | "segment" | "branch" | "newest" | "target" | "keyboard" | "filter", ReactNode> = {
  user: (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c0-4 3.6-6.5 8-6.5s8 2.5 8 6.5" />
    </>
  ),
  assistant: (
    <>
      <rect x="4" y="8" width="16" height="12" rx="3" />
      <path d="M12 4v4M9 13.5v1.5M15 13.5v1.5" />
    </>
  ),
  toolResult: <path d="M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.8-3.8a6 6 0 0 1-7.9 7.9l-6.9 6.9a2.1 2.1 0 0 1-3-3l6.9-6.9a6 6 0 0 1 7.9-7.9z" />,
  bashExecution: <path d="m4 17 6-6-6-6M12 19h8" />,
  custom: <path d="M12 3 21 12 12 21 3 12z" />,
  branchSummary: (
    <>
      <circle cx="6" cy="5" r="2" />
      <circle cx="6" cy="19" r="2" />
      <circle cx="18" cy="7" r="2" />
      <path d="M6 7v10M18 9c0 5-7 4-11.5 8.5" />
    </>
  ),
  compaction: <path d="M12 22v-6M12 8V2M3 12h18M15 19l-3-3-3 3M15 5l-3 3-3-3" />,
  system: (
    <>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M7 9l3 3-3 3M13 15h4" />
    </>
  ),
  usage: <path d="M4 20V12M10 20V6M16 20v-9M21 20H3" />,
  contextEdit: <path d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16v4zM13.5 6.5l4 4" />,
  model: (
    <>
      <rect x="6" y="6" width="12" height="12" rx="2" />
      <path d="M9 2v4M15 2v4M9 18v4M15 18v4M2 9h4M2 15h4M18 9h4M18 15h4" />
    </>
  ),
  thinking: <path d="M9 18h6M10 22h4M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2z" />,
  label: (
    <>
      <path d="M20.6 13.4 13.4 20.6a2 2 0 0 1-2.8 0L2 12V2h10l8.6 8.6a2 2 0 0 1 0 2.8z" />
      <circle cx="7" cy="7" r="1.5" />
    </>
  ),
  sessionInfo: (
    <>
      <circle cx="12" cy="12" r="10" />
      <path d="M12 16v-4M12 8h.01" />
    </>
  ),
  leaf: <path d="M4 4l7 17 2.5-7.5L21 11z" />,
  unknown: (
    <>
      <circle cx="12" cy="12" r="10" />
      <path d="M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3M12 17h.01" />
    </>
  ),
  segment: <path d="m7 15 5 5 5-5M7 9l5-5 5 5" />,
  branch: (
    <>
      <circle cx="6" cy="5" r="2" />
      <circle cx="6" cy="19" r="2" />
      <circle cx="18" cy="7" r="2" />
      <path d="M6 7v10M18 9c0 5-7 4-11.5 8.5" />
    </>
  ),
  newest: <path d="M12 3v14M6 11l6 6 6-6M5 21h14" />,
  target: (
    <>
      <circle cx="12" cy="12" r="8" />
      <circle cx="12" cy="12" r="3" />
    </>
  ),
  keyboard: (
    <>
      <rect x="2" y="6" width="20" height="12" rx="2" />
      <path d="M6 10h.01M10 10h.01M14 10h.01M18 10h.01M7 14h10" />
    </>
  ),
  filter: <path d="M3 5h18l-7 8.5V19l-4 2v-7.5z" />,
};

export type IconName = keyof typeof PATHS;

export function Icon({ name, className = "h-3.5 w-3.5" }: { name: IconName; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={`shrink-0 ${className}`}
    >
      {PATHS[name]}
    </svg>
  );
}

/** Text colour of each kind's icon (the inspector's tones). */
export const KIND_TEXT: Record<EntryKind, string> = {
  user: "text-sky-600 dark:text-sky-400",
  assistant: "text-violet-600 dark:text-violet-400",
  toolResult: "text-amber-600 dark:text-amber-400",
  bashExecution: "text-emerald-600 dark:text-emerald-400",
  custom: "text-teal-600 dark:text-teal-400",
  branchSummary: "text-orange-600 dark:text-orange-400",
  compaction: "text-orange-600 dark:text-orange-400",
  model: "text-slate-500 dark:text-slate-400",
  thinking: "text-slate-500 dark:text-slate-400",
  label: "text-pink-600 dark:text-pink-400",
  sessionInfo: "text-pink-600 dark:text-pink-400",
  leaf: "text-pink-600 dark:text-pink-400",
  system: "text-slate-500 dark:text-slate-400",
  usage: "text-pink-600 dark:text-pink-400",
  contextEdit: "text-slate-500 dark:text-slate-400",
  unknown: "text-zinc-500 dark:text-zinc-400",
};

/** Minimap fill per kind: the same hues, flat. */
export const KIND_FILL: Record<EntryKind, string> = {
  user: "#0ea5e9",
  assistant: "#8b5cf6",
  toolResult: "#f59e0b",
  bashExecution: "#10b981",
  custom: "#14b8a6",
  branchSummary: "#f97316",
  compaction: "#f97316",
  model: "#64748b",
  thinking: "#64748b",
  label: "#ec4899",
  sessionInfo: "#ec4899",
  leaf: "#ec4899",
  system: "#64748b",
  usage: "#ec4899",
  contextEdit: "#64748b",
  unknown: "#71717a",
};

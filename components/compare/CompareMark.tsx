/** How a graph card shows its part in the open comparison: an outline in the side's colour and a small tag. */
import type { CompareRole } from "./compare-model";

export const COMPARE_OUTLINE: Record<CompareRole, string> = {
  a: "outline-2 outline-offset-[3px] outline-solid outline-sky-500",
  b: "outline-2 outline-offset-[3px] outline-solid outline-rose-500",
  ancestor: "outline-2 outline-offset-[3px] outline-solid outline-amber-500",
  "segment-a": "outline-[1.5px] outline-offset-2 outline-dashed outline-sky-400/80",
  "segment-b": "outline-[1.5px] outline-offset-2 outline-dashed outline-rose-400/80",
};

const TAG: Partial<Record<CompareRole, { text: string; className: string }>> = {
  a: { text: "A", className: "bg-sky-500" },
  b: { text: "B", className: "bg-rose-500" },
  ancestor: { text: "ancestor", className: "bg-amber-500" },
};

export function CompareMark({ role }: { role: CompareRole }) {
  const tag = TAG[role];
  if (!tag) return null;
  return (
    <span
      className={`pointer-events-none absolute -top-2.5 left-1/2 -translate-x-1/2 rounded-full px-1.5 text-[9px] leading-[15px] font-bold tracking-wide text-white uppercase shadow-sm ${tag.className}`}
    >
      {tag.text}
    </span>
  );
}

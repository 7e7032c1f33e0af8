/** Label/value rows and small chips: the inspector's layout primitives for facts. */
import type { ReactNode } from "react";

export function Fields({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-[12.5px]">{children}</dl>;
}

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

export function Chip({ children, tone = "plain", title }: { children: ReactNode; tone?: "plain" | "warn" | "error" | "ok" | "accent"; title?: string }) {
  const tones = {
    plain: "border-border text-muted",
    warn: "border-amber-300 text-amber-800 dark:border-amber-800 dark:text-amber-300",
    error: "border-red-300 text-red-700 dark:border-red-900 dark:text-red-300",
    ok: "border-emerald-300 text-emerald-800 dark:border-emerald-900 dark:text-emerald-300",
    accent: "border-accent/50 text-accent",
  };
  return (
    <span title={title} className={`inline-flex items-center rounded-full border px-1.5 text-[11px] leading-[18px] whitespace-nowrap ${tones[tone]}`}>
      {children}
    </span>
  );
}

export function Section({ title, children, aside }: { title: string; children: ReactNode; aside?: ReactNode }) {
  return (
    <section className="flex flex-col gap-1.5">
      <h3 className="flex items-baseline gap-2 text-[11px] font-semibold tracking-wide text-muted uppercase">
        {title}
        {aside ? <span className="font-normal tracking-normal normal-case">{aside}</span> : null}
      </h3>
      {children}
    </section>
  );
}

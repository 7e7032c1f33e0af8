"use client";

/**
 * The Context tab's System row: the system prompt and tools in force at the entry, replayed from the context's
 * system messages as pi does (features/system-prompt.ts). Folded to one line; opened, the prompt's text, the
 * messages that made it and the tools with their descriptions. A path with no system message says why.
 */
import { useState } from "react";
import type { SystemPrompt } from "@/lib/session/features/system-prompt";
import { SystemText, ToolsList } from "@/components/transcript/SystemPromptView";
import { EntryLink } from "./EntryLink";

export function SystemRow({ prompt }: { prompt: SystemPrompt | null }) {
  const [open, setOpen] = useState(false);
  if (!prompt) {
    return (
      <p data-testid="context-system" data-recorded="false" className="border-b border-border px-3 py-1 text-[12px] text-muted">
        <span className="font-semibold">System</span> · not recorded on this path: pi stores the prompt and tools in the session from 0.86 on
      </p>
    );
  }
  const facts = [
    `${prompt.text.length.toLocaleString("en-US")} characters`,
    ...(prompt.sections.length ? [`${prompt.sections.length} ${prompt.sections.length === 1 ? "section" : "sections"}`] : []),
    `${prompt.tools.length} ${prompt.tools.length === 1 ? "tool" : "tools"}`,
    ...(prompt.from.length > 1 ? [`${prompt.from.length - 1} ${prompt.from.length === 2 ? "update" : "updates"}`] : []),
  ];
  return (
    <div data-testid="context-system" data-recorded="true" className="border-b border-border">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex h-[26px] w-full items-center gap-2 px-3 text-left text-[12px] hover:bg-surface focus-visible:ring-1 focus-visible:ring-accent focus-visible:outline-none focus-visible:ring-inset"
      >
        <span aria-hidden className={`inline-block w-3 text-muted transition-transform ${open ? "rotate-90" : ""}`}>
          ▸
        </span>
        <span className="font-semibold">System</span>
        <span className="min-w-0 truncate text-muted">{facts.join(" · ")}</span>
        <span className="ml-auto shrink-0 truncate text-[11px] text-subtle">{prompt.tools.map((tool) => tool.name).join(", ")}</span>
      </button>
      {open ? (
        <div className="flex max-h-[50vh] flex-col gap-2 overflow-y-auto px-3 pt-1 pb-3 pl-8">
          <ol className="flex flex-col gap-0.5 text-[12px] text-muted">
            {prompt.from.map((step, i) => (
              <li key={i} className="flex min-w-0 items-baseline gap-1.5">
                <EntryLink id={step.entryId} />
                <span className="min-w-0 truncate">
                  {i === 0 ? "the prompt" : `update: ${step.change || "no change"}`}
                  {step.source === "systemMessage" ? " (kept by the compaction)" : ""}
                </span>
              </li>
            ))}
          </ol>
          <SystemText text={prompt.text} label="system prompt" />
          <ToolsList tools={prompt.tools} title="Tools in force" />
        </div>
      ) : null}
    </div>
  );
}

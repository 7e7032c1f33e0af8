"use client";

/**
 * The system prompt and tools as the session records them (pi ≥ 0.86): the prompt's text, folded past its first
 * lines, and the tools with their descriptions and, opened, their parameters. Drawn by the Context tab's System
 * row and by the transcripts' system sections.
 */
import type { ToolDeclaration } from "@/lib/session/features/system-prompt";
import { CodeBlock } from "./CodeBlock";

export function SystemText({ text, label }: { text: string; label: string }) {
  if (!text) return <p className="text-[12px] text-muted">(no prompt text)</p>;
  return <CodeBlock code={text} language={null} label={label} />;
}

export function ToolsList({ tools, title, removed = [] }: { tools: readonly ToolDeclaration[]; title: string; removed?: readonly string[] }) {
  if (!tools.length && !removed.length) return null;
  return (
    <div className="min-w-0 rounded border border-border" data-tools-list>
      <div className="border-b border-border bg-surface px-2 py-1 text-[11.5px] font-semibold text-muted">
        {title} <span className="font-normal">({tools.length})</span>
      </div>
      <ul className="divide-y divide-border/60 text-[12px]">
        {tools.map((tool, i) => (
          <li key={`${i}-${tool.name}`} data-tool-name={tool.name} className="px-2 py-1">
            {tool.parameters.length ? (
              <details className="group">
                <summary className="cursor-pointer list-none">
                  <ToolLine tool={tool} />
                </summary>
                <Parameters tool={tool} />
              </details>
            ) : (
              <ToolLine tool={tool} />
            )}
          </li>
        ))}
        {removed.map((name, i) => (
          <li key={`removed-${i}-${name}`} data-tool-removed={name} className="px-2 py-1 text-muted">
            <span className="font-mono line-through">{name}</span> <span className="text-[11px]">removed</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ToolLine({ tool }: { tool: ToolDeclaration }) {
  return (
    <span className="flex min-w-0 items-baseline gap-1.5">
      {tool.parameters.length ? (
        <span aria-hidden className="inline-block w-2 shrink-0 text-subtle transition-transform group-open:rotate-90">
          ▸
        </span>
      ) : (
        <span aria-hidden className="inline-block w-2 shrink-0" />
      )}
      <span className="shrink-0 font-mono font-semibold">{tool.name}</span>
      <span className="min-w-0 text-muted">{tool.description || "(no description)"}</span>
      {tool.parameters.length ? (
        <span className="ml-auto shrink-0 text-[11px] text-subtle">
          {tool.parameters.length} {tool.parameters.length === 1 ? "parameter" : "parameters"}
        </span>
      ) : null}
    </span>
  );
}

function Parameters({ tool }: { tool: ToolDeclaration }) {
  return (
    <dl className="mt-1 ml-3.5 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-0.5 border-l border-border pl-2">
      {tool.parameters.map((parameter) => (
        <div key={parameter.name} className="contents">
          <dt className="font-mono">
            {parameter.name} <span className="text-accent">{parameter.type}</span>
          </dt>
          <dd className="min-w-0 text-muted">
            <span className={parameter.required ? "text-warning" : "text-subtle"}>{parameter.required ? "required" : "optional"}</span>
            {parameter.description ? ` · ${parameter.description}` : ""}
          </dd>
        </div>
      ))}
    </dl>
  );
}

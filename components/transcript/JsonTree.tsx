"use client";

/** Arguments of a tool we have no renderer for, as a tree that folds: objects and lists open to two levels. */
import type { ReactNode } from "react";

const OPEN_DEPTH = 2;
/** strings longer than this fold into their first characters */
const LONG_STRING = 240;

export function JsonTree({ value, label }: { value: unknown; label: string }) {
  return (
    <div
      role="tree"
      aria-label={label}
      className="min-w-0 overflow-x-auto rounded border border-border bg-surface px-2 py-1 font-mono text-[12px] leading-[18px]"
    >
      <Node value={value} depth={0} />
    </div>
  );
}

function Node({ name, value, depth }: { name?: string; value: unknown; depth: number }) {
  const key = name === undefined ? null : <span className="text-accent">{JSON.stringify(name)}: </span>;
  if (value !== null && typeof value === "object") {
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    if (!entries.length)
      return (
        <div role="treeitem" aria-selected={false}>
          {key}
          {open}
          {close}
        </div>
      );
    return (
      <details role="treeitem" aria-selected={false} open={depth < OPEN_DEPTH} className="group">
        <summary className="cursor-pointer list-none select-none marker:hidden">
          <span aria-hidden className="inline-block w-[2ch] text-subtle group-open:rotate-90">
            ▸
          </span>
          {key}
          {open}
          <span className="text-subtle group-open:hidden">
            {" "}
            {entries.length} {Array.isArray(value) ? "items" : "keys"} {close}
          </span>
        </summary>
        <div role="group" className="border-l border-border pl-3">
          {entries.map(([k, v]) => (
            <Node key={k} name={Array.isArray(value) ? undefined : k} value={v} depth={depth + 1} />
          ))}
        </div>
        <div className="pl-[2ch]">{close}</div>
      </details>
    );
  }
  return (
    <div role="treeitem" aria-selected={false} className="pl-[2ch] break-words whitespace-pre-wrap">
      {key}
      <Scalar value={value} />
    </div>
  );
}

function Scalar({ value }: { value: unknown }): ReactNode {
  if (typeof value === "string") {
    if (value.length <= LONG_STRING) return <span className="hljs-string">{JSON.stringify(value)}</span>;
    return (
      <details className="inline">
        <summary className="inline cursor-pointer">
          <span className="hljs-string">{JSON.stringify(value.slice(0, LONG_STRING))}</span>
          <span className="text-subtle"> … {value.length} characters</span>
        </summary>
        <span className="hljs-string">{JSON.stringify(value)}</span>
      </details>
    );
  }
  if (typeof value === "number" || typeof value === "boolean" || value === null) return <span className="hljs-literal">{String(value)}</span>;
  return <span className="text-subtle">{String(value)}</span>;
}

"use client";

/**
 * One tool call and its result, drawn the way its tool means it: an edit as a diff, a read or a write as code in
 * its language, a bash run as its terminal showed it with its exit code, a search as a list. Tools we have no
 * renderer for show their arguments as a tree and their output as text. `data-tool` and `data-tool-call-id`
 * name the call on the element, for tests and for links.
 */
import type { ReactNode } from "react";
import { Chip } from "@/components/inspector/Fields";
import { languageOfPath } from "@/lib/render/languages";
import type { ToolView } from "@/lib/session/features/tool-view";
import { AnsiBlock, Linked } from "./AnsiBlock";
import { CodeBlock } from "./CodeBlock";
import { DiffBlock } from "./DiffBlock";
import { FoldedLines } from "./FoldedLines";
import { ImageBlock } from "./ImageBlock";
import { JsonTree } from "./JsonTree";

export type ToolParts = "call" | "result" | "both";

export function ToolCallView({ view, parts = "both" }: { view: ToolView; parts?: ToolParts }) {
  const exit = view.tool === "bash" ? view.exitCode : null;
  return (
    <div
      data-tool={view.name}
      data-tool-call-id={view.id}
      data-exit-code={exit ?? undefined}
      className={`my-1 min-w-0 rounded border ${view.failed ? "border-danger/40" : "border-border"}`}
    >
      <Header view={view} />
      <div className="flex min-w-0 flex-col gap-1.5 p-1.5 empty:hidden">
        {parts !== "result" ? <CallBody view={view} /> : null}
        {parts !== "call" ? <ResultBody view={view} /> : null}
      </div>
    </div>
  );
}

function Header({ view }: { view: ToolView }) {
  return (
    <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-0.5 border-b border-border bg-surface px-2 py-1 text-[12px]">
      <span className="font-mono font-semibold">{view.name || "(unnamed tool)"}</span>
      <Subject view={view} />
      <span className="ml-auto flex items-baseline gap-1.5">
        <Status view={view} />
        {view.id ? (
          <span className="max-w-[16ch] truncate font-mono text-[11px] text-subtle" title={view.id}>
            {view.id}
          </span>
        ) : null}
      </span>
    </div>
  );
}

function Path({ path, children }: { path: string | null; children?: ReactNode }) {
  return (
    <span className="min-w-0 font-mono break-all" data-tool-path={path ?? undefined}>
      {path ?? <span className="text-danger">[no path]</span>}
      {children}
    </span>
  );
}

function Subject({ view }: { view: ToolView }) {
  switch (view.tool) {
    case "edit":
      return <Path path={view.path} />;
    case "read":
      return <Path path={view.path}>{view.range ? <span className="text-muted">{view.range}</span> : null}</Path>;
    case "write":
      return (
        <Path path={view.path}>
          {view.content !== null ? (
            <span className="text-muted">
              {" "}
              · {view.lineCount} {view.lineCount === 1 ? "line" : "lines"}
            </span>
          ) : null}
        </Path>
      );
    case "bash":
      return view.timeout !== null ? <span className="text-muted">timeout {view.timeout}s</span> : null;
    case "grep":
    case "find":
      return (
        <span className="min-w-0 font-mono break-all">
          <span className="text-accent">{view.tool === "grep" ? `/${view.query}/` : view.query}</span>
          <span className="text-muted"> in {view.path ?? "."}</span>
        </span>
      );
    case "ls":
      return <Path path={view.path ?? "."} />;
    default:
      return null;
  }
}

function Status({ view }: { view: ToolView }) {
  if (!view.result) return <Chip>no result</Chip>;
  if (view.tool === "bash") {
    if (view.status === "exited") return <Chip tone={view.exitCode === 0 ? "ok" : "error"}>exit {view.exitCode}</Chip>;
    return <Chip tone={view.status === "aborted" ? "warn" : "error"}>{view.status}</Chip>;
  }
  return view.failed ? <Chip tone="error">error</Chip> : <Chip tone="ok">ok</Chip>;
}

function CallBody({ view }: { view: ToolView }) {
  switch (view.tool) {
    case "edit":
      if (view.diff) return <DiffBlock lines={view.diff} label={`changes to ${view.path ?? "the file"}`} language={languageOfPath(view.path)} />;
      return view.result ? null : <JsonTree value={view.args} label="arguments" />;
    case "write":
      return view.content === null ? (
        <p className="text-[12px] text-danger">[no content: the call&apos;s content is not text]</p>
      ) : (
        <CodeBlock code={view.content} language={languageOfPath(view.path)} firstLine={1} label={`content written to ${view.path ?? "the file"}`} />
      );
    case "bash":
      return view.command === null ? (
        <p className="text-[12px] text-danger">[no command]</p>
      ) : (
        <div className="flex min-w-0 items-start gap-1">
          <span aria-hidden className="pt-1 font-mono text-[12px] text-subtle select-none">
            {view.shell === "powershell" ? "PS>" : "$"}
          </span>
          <div className="min-w-0 flex-1">
            {/* (no PowerShell grammar among the common ones: its commands are shown plain) */}
            <CodeBlock code={view.command} language={view.shell === "powershell" ? null : "bash"} label="command" />
          </div>
        </div>
      );
    case "read":
    case "grep":
    case "find":
    case "ls":
      return null; // their header says what they were asked
    default:
      return <JsonTree value={view.args} label={`arguments of ${view.name}`} />;
  }
}

function ResultBody({ view }: { view: ToolView }) {
  if (!view.result) return null;
  const images = view.images.map((image, i) => <ImageBlock key={`image-${i}`} block={image} />);
  if (view.failed && view.tool !== "bash") return <ErrorText text={view.output} />;
  switch (view.tool) {
    case "edit":
    case "write":
      // pi's own line ("Successfully replaced 2 block(s) in …"); anything longer is output like any other
      if (!view.output) return null;
      return view.output.length <= 200 && !view.output.includes("\n") ? (
        <p className="px-0.5 text-[12px] text-muted">{view.output}</p>
      ) : (
        <AnsiBlock text={view.output} label={`output of ${view.name}`} />
      );
    case "read":
      return (
        <>
          {images}
          {view.content ? (
            <CodeBlock
              code={view.content}
              language={languageOfPath(view.path)}
              firstLine={view.images.length ? null : view.firstLine}
              label={`lines read from ${view.path ?? "the file"}`}
            />
          ) : null}
          {view.note ? <p className="px-0.5 text-[12px] text-muted">{view.note}</p> : null}
        </>
      );
    case "bash":
      return (
        <>
          {view.shown.trim() ? (
            <AnsiBlock text={view.shown.replace(/\n+$/, "")} label="output" />
          ) : (
            <p className="px-0.5 text-[12px] text-muted">(no output)</p>
          )}
          {view.truncation || view.fullOutputPath ? (
            <p className="flex flex-wrap items-center gap-1.5 px-0.5 text-[12px] text-muted">
              {view.truncation ? <Chip tone="warn">truncated</Chip> : null}
              {view.truncation ? <span>{view.truncation}</span> : null}
              {view.fullOutputPath && !view.truncation?.includes(view.fullOutputPath) ? (
                <span className="font-mono">full output: {view.fullOutputPath}</span>
              ) : null}
            </p>
          ) : null}
        </>
      );
    case "grep":
    case "find":
    case "ls":
      return <ListResult view={view} />;
    default:
      return (
        <>
          {images}
          {view.output ? <AnsiBlock text={view.output} label={`output of ${view.name}`} /> : null}
        </>
      );
  }
}

function ErrorText({ text }: { text: string }) {
  return (
    <div role="note" className="rounded border border-danger/40 bg-danger-soft px-2 py-1 font-mono text-[12px] whitespace-pre-wrap break-words text-danger">
      {text || "(the tool failed and said nothing)"}
    </div>
  );
}

const NOUNS = { grep: ["match", "matches"], find: ["file", "files"], ls: ["entry", "entries"] } as const;
const GREP_LINE = /^(.+?)([:-])(\d+)([:-]) (.*)$/;

function ListResult({ view }: { view: Extract<ToolView, { tool: "grep" | "find" | "ls" }> }) {
  const [one, many] = NOUNS[view.tool];
  const files = view.tool === "grep" ? new Set(view.items.flatMap((line) => GREP_LINE.exec(line)?.[1] ?? [])).size : 0;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <p className="px-0.5 text-[12px] text-muted" data-count={view.matches}>
        {view.matches} {view.matches === 1 ? one : many}
        {view.tool === "grep" && files ? ` in ${files} ${files === 1 ? "file" : "files"}` : ""}
      </p>
      {view.items.length ? (
        <FoldedLines
          count={view.items.length}
          label={`${many} of ${view.tool}`}
          renderLine={(i) => <ListRow key={i} tool={view.tool} line={view.items[i]!} />}
        />
      ) : null}
      {view.notes.map((note, i) => (
        <p key={i} className="px-0.5 text-[12px] text-warning">
          {note}
        </p>
      ))}
    </div>
  );
}

function ListRow({ tool, line }: { tool: string; line: string }) {
  const match = tool === "grep" ? GREP_LINE.exec(line) : null;
  if (!match) return <div className={`px-2 ${line.endsWith("/") ? "text-accent" : ""}`}>{line}</div>;
  const context = match[2] === "-";
  return (
    <div className={`px-2 ${context ? "text-muted" : ""}`}>
      <span className="text-accent">{match[1]}</span>
      <span className="text-subtle">
        {match[2]}
        {match[3]}
        {match[4]}{" "}
      </span>
      <Linked text={match[5]!} />
    </div>
  );
}

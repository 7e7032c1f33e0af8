"use client";

/** One AgentMessage (spec §4.1) rendered by role; used for message entries and for context items. */
import type { JsonObject } from "@/lib/session";
import { MessageContent, ResultContent } from "./ContentBlocks";
import { EntryLink } from "./EntryLink";
import { Chip, Field, Fields } from "./Fields";
import { Markdown } from "./Markdown";
import { TruncatedText } from "./TruncatedText";
import { UsageLine } from "./UsageLine";

export function MessageBody({ message }: { message: JsonObject }) {
  switch (message.role) {
    case "user":
      return <MessageContent content={message.content} />;
    case "assistant":
      return <AssistantBody message={message} />;
    case "toolResult":
      return <ToolResultBody message={message} />;
    case "bashExecution":
      return <BashBody message={message} />;
    case "custom":
      return (
        <div className="flex flex-col gap-2">
          <Fields>
            <Field label="customType">
              <span className="font-mono">{String(message.customType)}</span>
            </Field>
            <Field label="display">{String(message.display)}</Field>
          </Fields>
          <MessageContent content={message.content} />
          <Details value={message.details} />
        </div>
      );
    case "branchSummary":
      return (
        <div className="flex flex-col gap-2">
          <Fields>
            <Field label="from">{message.fromId === "root" ? "root (before the first entry)" : <EntryLink id={message.fromId} />}</Field>
          </Fields>
          <Markdown text={typeof message.summary === "string" ? message.summary : ""} />
        </div>
      );
    case "compactionSummary":
      return (
        <div className="flex flex-col gap-2">
          <Fields>
            <Field label="tokens before">{String(message.tokensBefore)}</Field>
          </Fields>
          <Markdown text={typeof message.summary === "string" ? message.summary : ""} />
        </div>
      );
    default:
      return <TruncatedText text={JSON.stringify(message, null, 2)} />;
  }
}

function AssistantBody({ message }: { message: JsonObject }) {
  const stop = message.stopReason;
  return (
    <div className="flex flex-col gap-2">
      <MessageContent content={message.content} />
      {typeof message.errorMessage === "string" ? (
        <p className="rounded border border-red-300 bg-red-50 px-2 py-1 text-[12px] text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
          {message.errorMessage}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-1.5 text-[12px] text-muted">
        {typeof stop === "string" ? (
          <Chip tone={stop === "error" || stop === "aborted" ? "error" : stop === "length" ? "warn" : "plain"}>stop: {stop}</Chip>
        ) : null}
        {typeof message.api === "string" ? <Chip>{message.api}</Chip> : null}
        <UsageLine usage={message.usage} />
      </div>
    </div>
  );
}

function ToolResultBody({ message }: { message: JsonObject }) {
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-1.5 text-[12px]">
        <span className="font-mono font-semibold">{String(message.toolName)}</span>
        {message.isError === true ? <Chip tone="error">error</Chip> : <Chip tone="ok">ok</Chip>}
        {typeof message.toolCallId === "string" ? <span className="truncate font-mono text-[11px] text-muted">{message.toolCallId}</span> : null}
      </div>
      <ResultContent content={message.content} />
      <Details value={message.details} />
    </div>
  );
}

function BashBody({ message }: { message: JsonObject }) {
  const output = typeof message.output === "string" ? message.output : "";
  return (
    <div className="flex flex-col gap-2">
      <pre className="overflow-x-auto rounded border border-border bg-surface px-2 py-1 font-mono text-[12px] whitespace-pre-wrap">
        <span className="text-muted select-none">$ </span>
        {String(message.command ?? "")}
      </pre>
      {output ? <TruncatedText text={output} /> : <p className="text-[12px] text-muted">(no output)</p>}
      <div className="flex flex-wrap items-center gap-1.5">
        {typeof message.exitCode === "number" ? <Chip tone={message.exitCode === 0 ? "ok" : "error"}>exit {message.exitCode}</Chip> : <Chip>no exit code</Chip>}
        {message.cancelled === true ? <Chip tone="warn">cancelled</Chip> : null}
        {message.truncated === true ? <Chip tone="warn">output truncated by pi</Chip> : null}
        {typeof message.fullOutputPath === "string" ? <span className="font-mono text-[11px] text-muted">full output: {message.fullOutputPath}</span> : null}
      </div>
      {message.excludeFromContext === true ? (
        <p className="text-[12px] text-muted">
          Excluded from context: typed with the <code className="font-mono">!!</code> prefix, so pi never sends it to the model.
        </p>
      ) : null}
    </div>
  );
}

function Details({ value }: { value: unknown }) {
  if (value === undefined) return null;
  return (
    <details>
      <summary className="cursor-pointer text-[12px] text-muted select-none">details</summary>
      <TruncatedText text={JSON.stringify(value, null, 2)} />
    </details>
  );
}

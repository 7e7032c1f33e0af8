"use client";

/** One AgentMessage (spec §4.1) rendered by role; used for message entries and for context items. */
import type { JsonObject } from "@/lib/session";
import { AnsiBlock } from "@/components/transcript/AnsiBlock";
import { NotDisplayed } from "@/components/transcript/NotDisplayed";
import { CodeBlock } from "@/components/transcript/CodeBlock";
import { ToolCallView } from "@/components/transcript/ToolCallView";
import { useToolLinks } from "@/components/transcript/tool-links";
import { toolViewOf } from "@/lib/session/features/tool-view";
import { MessageContent } from "./ContentBlocks";
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
          <NotDisplayed display={message.display}>
            <MessageContent content={message.content} />
          </NotDisplayed>
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

/** A tool result drawn by its tool, with its call's arguments when the call is near (a read's path, an edit's diff). */
function ToolResultBody({ message }: { message: JsonObject }) {
  const { links, separate } = useToolLinks();
  const id = typeof message.toolCallId === "string" ? message.toolCallId : "";
  const found = links.calls.get(id);
  const call = found ?? { id, name: typeof message.toolName === "string" ? message.toolName : "", arguments: {} };
  return (
    <div className="flex flex-col gap-2">
      <ToolCallView view={toolViewOf(call, message)} parts={separate || !found ? "result" : "both"} />
      <Details value={message.details} />
    </div>
  );
}

function BashBody({ message }: { message: JsonObject }) {
  const output = typeof message.output === "string" ? message.output : "";
  return (
    <div className="flex flex-col gap-2">
      <div className="flex min-w-0 items-start gap-1">
        <span aria-hidden className="pt-1 font-mono text-[12px] text-subtle select-none">
          $
        </span>
        <div className="min-w-0 flex-1">
          <CodeBlock code={String(message.command ?? "")} language="bash" label="command" />
        </div>
      </div>
      {output ? <AnsiBlock text={output.replace(/\n+$/, "")} label="output" /> : <p className="text-[12px] text-muted">(no output)</p>}
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

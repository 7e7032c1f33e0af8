"use client";

/** The content of one entry, by type (spec §4.2); message entries go through MessageBody. */
import type { JsonObject, TreeEntry } from "@/lib/session";
import { MessageContent } from "./ContentBlocks";
import { EntryLink } from "./EntryLink";
import { Field, Fields, Section } from "./Fields";
import { Markdown } from "./Markdown";
import { MessageBody } from "./MessageBody";
import { TruncatedText } from "./TruncatedText";
import { UsageLine } from "./UsageLine";
import { messageKind, messageSnippet } from "./entry-kind";
import { KindBadge } from "./KindBadge";

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

function Json({ value }: { value: unknown }) {
  return <TruncatedText text={value === undefined ? "undefined" : JSON.stringify(value, null, 2)} />;
}

function FileList({ files }: { files: unknown }) {
  if (!Array.isArray(files) || files.length === 0) return <span className="text-muted">none</span>;
  return (
    <ul className="font-mono text-[12px]">
      {files.map((f, i) => (
        <li key={i} className="truncate" title={String(f)}>
          {String(f)}
        </li>
      ))}
    </ul>
  );
}

function CompactionBody({ entry }: { entry: TreeEntry }) {
  const details = isObject(entry.details) ? entry.details : null;
  const tail = Array.isArray(entry.retainedTail) ? entry.retainedTail : null;
  return (
    <div className="flex flex-col gap-3">
      <Fields>
        <Field label="tokens before">{String(entry.tokensBefore)}</Field>
        <Field label="first kept">{entry.firstKeptEntryId === undefined ? <span className="text-muted">none: nothing before the compaction is kept</span> : <EntryLink id={entry.firstKeptEntryId} />}</Field>
        {entry.fromHook === true ? <Field label="from">an extension (fromHook)</Field> : null}
        {entry.usage !== undefined ? (
          <Field label="usage">
            <UsageLine usage={entry.usage} />
          </Field>
        ) : null}
        {details && ("readFiles" in details || "modifiedFiles" in details) ? (
          <>
            <Field label="read files">
              <FileList files={details.readFiles} />
            </Field>
            <Field label="modified files">
              <FileList files={details.modifiedFiles} />
            </Field>
          </>
        ) : entry.details !== undefined ? (
          <Field label="details">
            <Json value={entry.details} />
          </Field>
        ) : null}
      </Fields>
      <Section title="Summary">
        <Markdown text={typeof entry.summary === "string" ? entry.summary : ""} />
      </Section>
      {tail ? (
        <Section title="Retained tail" aside={`${tail.length} messages kept inside the compaction (harness)`}>
          {tail.map((message, i) => (
            <details key={i} className="rounded border border-border">
              <summary className="flex cursor-pointer items-center gap-2 px-2 py-1 text-[12px]">
                <KindBadge kind={messageKind(message)} />
                <span className="truncate">{messageSnippet(message)}</span>
              </summary>
              <div className="px-2 pb-2">{isObject(message) ? <MessageBody message={message} /> : <Json value={message} />}</div>
            </details>
          ))}
        </Section>
      ) : null}
    </div>
  );
}

export function EntryBody({ entry }: { entry: TreeEntry }) {
  switch (entry.type) {
    case "message":
      return isObject(entry.message) ? (
        <MessageBody message={entry.message} />
      ) : (
        <p className="text-[12.5px] text-red-700 dark:text-red-300">This message entry has no message object: pi throws (reading &apos;role&apos;) when it builds a context through it.</p>
      );
    case "custom_message":
      return (
        <div className="flex flex-col gap-2">
          <Fields>
            <Field label="customType">
              <span className="font-mono">{String(entry.customType)}</span>
            </Field>
            <Field label="display">{entry.display === true ? "shown in the TUI" : "hidden in the TUI"}</Field>
          </Fields>
          <MessageContent content={entry.content} />
          {entry.details !== undefined ? (
            <Section title="Details">
              <Json value={entry.details} />
            </Section>
          ) : null}
        </div>
      );
    case "custom":
      return (
        <div className="flex flex-col gap-2">
          <Fields>
            <Field label="customType">
              <span className="font-mono">{String(entry.customType)}</span>
            </Field>
          </Fields>
          <Section title="Data" aside="extension state: never sent to the model">
            <Json value={entry.data} />
          </Section>
        </div>
      );
    case "compaction":
      return <CompactionBody entry={entry} />;
    case "branch_summary":
      return (
        <div className="flex flex-col gap-3">
          <Fields>
            <Field label="from">{entry.fromId === "root" ? "root (before the first entry)" : <EntryLink id={entry.fromId} />}</Field>
            {entry.fromHook === true ? <Field label="from">an extension (fromHook)</Field> : null}
            {entry.usage !== undefined ? (
              <Field label="usage">
                <UsageLine usage={entry.usage} />
              </Field>
            ) : null}
            {entry.details !== undefined ? (
              <Field label="details">
                <Json value={entry.details} />
              </Field>
            ) : null}
          </Fields>
          <Section title="Summary">{entry.summary ? <Markdown text={String(entry.summary)} /> : <p className="text-[12px] text-muted">(empty: pi sends nothing for it)</p>}</Section>
        </div>
      );
    case "model_change":
      return (
        <Fields>
          <Field label="provider">{String(entry.provider)}</Field>
          <Field label="model">
            <span className="font-mono">{String(entry.modelId)}</span>
          </Field>
        </Fields>
      );
    case "thinking_level_change":
      return (
        <Fields>
          <Field label="thinking level">{String(entry.thinkingLevel)}</Field>
        </Fields>
      );
    case "active_tools_change":
      return (
        <Fields>
          <Field label="active tools">{Array.isArray(entry.activeToolNames) ? entry.activeToolNames.map(String).join(", ") || "(none)" : "(none)"}</Field>
        </Fields>
      );
    case "label":
      return (
        <Fields>
          <Field label="target">
            <EntryLink id={entry.targetId} />
          </Field>
          <Field label="label">{entry.label ? <span>“{String(entry.label)}”</span> : <span className="text-muted">cleared</span>}</Field>
        </Fields>
      );
    case "session_info":
      return (
        <Fields>
          <Field label="name">{typeof entry.name === "string" && entry.name.trim() ? entry.name : <span className="text-muted">(empty: clears the name)</span>}</Field>
        </Fields>
      );
    case "leaf":
      return (
        <Fields>
          <Field label="moves the leaf to">{typeof entry.targetId === "string" ? <EntryLink id={entry.targetId} /> : <span className="text-muted">null: before the first entry (the next entry is a new root)</span>}</Field>
        </Fields>
      );
    default:
      return (
        <p className="text-[12.5px] text-muted">
          {typeof entry.type === "string" ? `Entry type "${entry.type}" is unknown to this viewer.` : "This entry has no type."} pi keeps it as an ordinary tree node — it can be a parent and move the leaf — but sends nothing to the model. The raw JSON below is all there is.
        </p>
      );
  }
}

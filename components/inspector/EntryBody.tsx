"use client";

/** The content of one entry, by type (spec §4.2); message entries go through MessageBody. */
import { compactionAudit, modelLabel, type JsonObject, type TreeEntry } from "@/lib/session";
import { useViewer } from "@/components/viewer/store";
import { MessageContent } from "./ContentBlocks";
import { EntryLink } from "./EntryLink";
import { Chip, Field, Fields, Section } from "./Fields";
import { Markdown } from "./Markdown";
import { MessageBody } from "./MessageBody";
import { NotDisplayed } from "@/components/transcript/NotDisplayed";
import { TruncatedText } from "./TruncatedText";
import { UsageLine } from "./UsageLine";
import { entryKind, entrySnippet, messageKind, messageSnippet } from "./entry-kind";
import { KindBadge } from "./KindBadge";
import { isObject } from "@/lib/session/json";
import { useSessionMemo } from "@/components/viewer/use-session-memo";
import { ToolsList } from "@/components/transcript/SystemPromptView";
import { toolsAddedBy, toolsRemovedBy } from "@/lib/session/features/system-prompt";

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

/** The compaction beside pi's own preparation at its place (the Context tab's keep-recent setting). */
function CompactionAuditSection({ entry }: { entry: TreeEntry }) {
  const keep = useViewer((s) => s.compactionSettings.keepRecentTokens);
  const audit = useSessionMemo((session) => compactionAudit(session, entry, keep), [entry, keep]);
  if (!audit) return null;
  const mark = (same: boolean | null) => (same === null ? "" : same ? "✓ same" : "≠ differs");
  const computed = audit.computed;
  return (
    <Section title="As pi would prepare it" aside={`prepareCompaction on the path before it, keeping ≈${keep.toLocaleString("en-US")} tokens`}>
      {audit.error ? (
        <p className="text-[12px] text-red-700 dark:text-red-300">pi cannot prepare a compaction there: {audit.error}</p>
      ) : !computed ? (
        <p className="text-[12px] text-muted" data-testid="compaction-audit" data-prepared="false">
          pi would prepare nothing at this place with these settings (everything after the last compaction fits in what it keeps).
        </p>
      ) : (
        <table className="w-full text-[12px]" data-testid="compaction-audit" data-prepared="true">
          <thead className="text-left text-muted">
            <tr>
              <th className="font-normal"></th>
              <th className="font-normal">recorded</th>
              <th className="font-normal">as pi would compute</th>
              <th className="font-normal"></th>
            </tr>
          </thead>
          <tbody className="tabular-nums">
            <tr data-field="firstKeptEntryId" data-same={String(audit.same.firstKeptEntryId)}>
              <td className="text-muted">first kept</td>
              <td className="font-mono">{String(audit.recorded.firstKeptEntryId ?? "—")}</td>
              <td className="font-mono">{computed.firstKeptEntryId}</td>
              <td>{mark(audit.same.firstKeptEntryId)}</td>
            </tr>
            <tr data-field="tokensBefore" data-same={String(audit.same.tokensBefore)}>
              <td className="text-muted">tokens before</td>
              <td>{String(audit.recorded.tokensBefore ?? "—")}</td>
              <td>{computed.tokensBefore}</td>
              <td>{mark(audit.same.tokensBefore)}</td>
            </tr>
            <tr data-field="files" data-same={String(audit.same.files)}>
              <td className="text-muted">files read / modified</td>
              <td>
                {Array.isArray(audit.recorded.readFiles) ? audit.recorded.readFiles.length : "—"} /{" "}
                {Array.isArray(audit.recorded.modifiedFiles) ? audit.recorded.modifiedFiles.length : "—"}
              </td>
              <td>
                {computed.readFiles.length} / {computed.modifiedFiles.length}
              </td>
              <td>{mark(audit.same.files)}</td>
            </tr>
          </tbody>
        </table>
      )}
      {computed && Object.values(audit.same).some((same) => same === false) ? (
        <p className="mt-1 text-[11.5px] text-muted">
          {audit.recorded.fromHook
            ? "An extension made this compaction (fromHook): its own choices, not pi's, are recorded."
            : "A compaction made with other settings, with /compact and instructions, or by another pi version records other values: that is normal, not an error."}
        </p>
      ) : null}
    </Section>
  );
}

function CompactionBody({ entry }: { entry: TreeEntry }) {
  const details = isObject(entry.details) ? entry.details : null;
  const tail = Array.isArray(entry.retainedTail) ? entry.retainedTail : null;
  return (
    <div className="flex flex-col gap-3">
      <Fields>
        <Field label="tokens before">{String(entry.tokensBefore)}</Field>
        <Field label="first kept">
          {entry.firstKeptEntryId === undefined ? (
            <span className="text-muted">none: nothing before the compaction is kept</span>
          ) : entry.firstKeptEntryId === entry.id ? (
            <span className="text-muted">itself (pi ≥ 0.87&apos;s default): nothing before the compaction is kept</span>
          ) : (
            <EntryLink id={entry.firstKeptEntryId} />
          )}
        </Field>
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
      <CompactionAuditSection entry={entry} />
      <Section title="Summary">
        <Markdown text={typeof entry.summary === "string" ? entry.summary : ""} />
      </Section>
      {isObject(entry.systemMessage) ? (
        <Section title="System message" aside="the prompt and tools at this compaction, sent before its summary (pi ≥ 0.86)">
          <details className="rounded border border-border">
            <summary className="cursor-pointer px-2 py-1 text-[12px] text-muted">{systemSummary(entry.systemMessage)}</summary>
            <div className="px-2 pb-2">
              <SystemMessageBody message={entry.systemMessage} />
            </div>
          </details>
        </Section>
      ) : null}
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

function systemSummary(message: JsonObject): string {
  const sections = isObject(message.sections) ? Object.keys(message.sections).length : 0;
  const tools = Array.isArray(message.toolsAdded) ? message.toolsAdded.length : 0;
  return `${typeof message.content === "string" && message.content ? "prompt text, " : ""}${sections} section${sections === 1 ? "" : "s"}, ${tools} tool${tools === 1 ? "" : "s"} added`;
}

/** A `system` message (pi ≥ 0.86): a delta of the system prompt — text, named sections, tools added or removed. */
function SystemMessageBody({ message }: { message: JsonObject }) {
  const sections = isObject(message.sections) ? Object.entries(message.sections) : [];
  return (
    <div className="flex flex-col gap-2">
      {sections.length ? (
        <Fields>
          {sections.map(([name, value]) => (
            <Field key={name} label={`section ${name}`}>
              {value === null ? <span className="text-muted">removed</span> : <span className="whitespace-pre-wrap">{String(value)}</span>}
            </Field>
          ))}
        </Fields>
      ) : null}
      {typeof message.content === "string" && message.content ? (
        <TruncatedText text={message.content} />
      ) : (
        <p className="text-[12px] text-muted">(no prompt text{message.content == null ? ": pi sends it as an empty string" : ""})</p>
      )}
      <ToolsList tools={toolsAddedBy(message)} removed={toolsRemovedBy(message)} title="Tools added" />
    </div>
  );
}

/** A `usage` entry (pi ≥ 0.86): tokens spent outside the conversation (cache warming, titles, subagents). */
function UsageBody({ entry }: { entry: TreeEntry }) {
  return (
    <div className="flex flex-col gap-2">
      <Fields>
        <Field label="kind">
          <span className="font-mono">{String(entry.kind)}</span>
        </Field>
        <Field label="model">
          <span className="font-mono">{modelLabel(entry.provider, entry.model) ?? "(unknown)"}</span>
        </Field>
        <Field label="usage">
          <UsageLine usage={entry.usage} />
        </Field>
        {entry.note !== undefined ? <Field label="note">{String(entry.note)}</Field> : null}
      </Fields>
      <p className="text-[12px] text-muted">Not sent to the model: pi records what the call cost (pi-coding-agent ≥ 0.86).</p>
    </div>
  );
}

/** A `context_edit` entry (pi ≥ 0.87): replaces an earlier entry's content in the model's context, on its own branch. */
function ContextEditBody({ entry }: { entry: TreeEntry }) {
  const target = useViewer((s) => (typeof entry.targetId === "string" ? s.doc?.session.tree.get(entry.targetId) : undefined));
  const replacement = entry.replacement;
  return (
    <div className="flex flex-col gap-3">
      <Fields>
        <Field label="replaces">
          <span className="flex min-w-0 items-center gap-1.5">
            <EntryLink id={entry.targetId} />
            {target ? <KindBadge kind={entryKind(target)} /> : null}
          </span>
        </Field>
        {target ? (
          <Field label="was">
            <span className="line-clamp-2 text-muted" data-testid="context-edit-original">
              {entrySnippet(target)}
            </span>
          </Field>
        ) : null}
      </Fields>
      <Section title="Replacement" aside="what the model sees instead, wherever this edit and its target are both in the context">
        {replacement === null ? (
          <p className="text-[12.5px]" data-testid="context-edit-replacement">
            <Chip tone="warn">removed</Chip> the target&apos;s messages are left out of the context
          </p>
        ) : isObject(replacement) ? (
          <div data-testid="context-edit-replacement">
            <MessageContent content={replacement.content} />
          </div>
        ) : (
          <Json value={replacement} />
        )}
      </Section>
      <p className="text-[12px] text-muted">
        Branch-local: branches that do not pass through this edit still send the original. The last edit of a target on the path wins (pi-coding-agent ≥ 0.87).
      </p>
    </div>
  );
}

/** context_edit entries that name this entry, anywhere in the file (each applies on its own branch). */
function EditedBy({ entry }: { entry: TreeEntry }) {
  // a copy: the index's own list grows in place as a live tail adds edits
  const edits = useSessionMemo((session) => [...session.tree.editsOf(entry.id)], [entry.id]) ?? [];
  if (edits.length === 0) return null;
  return (
    <Fields>
      <Field label="edited by">
        <span className="flex flex-wrap items-center gap-1.5">
          {edits.map((e) => (
            <EntryLink
              key={String(e.id)}
              id={e.id}
              title={e.replacement === null ? "removes it from the context on its branch" : "replaces its content on its branch"}
            />
          ))}
          <span className="text-[12px] text-muted">(on the branches through {edits.length === 1 ? "that edit" : "those edits"})</span>
        </span>
      </Field>
    </Fields>
  );
}

/** Where a v4 log's lanes point (pi-agent-core ≥ 0.84): every lane, and which of them sit on this entry. */
function V4Lanes({ entry }: { entry: TreeEntry }) {
  const lanes = useSessionMemo((session) => (session.v4 ? [...session.v4.lanes.values()] : null), []);
  if (!lanes) return null;
  return (
    <Fields>
      {typeof entry.seq === "number" ? <Field label="seq">{entry.seq}</Field> : null}
      {typeof entry.lane === "string" ? <Field label="written on lane">{entry.lane}</Field> : null}
      <Field label="lanes">
        <ul className="flex flex-col gap-0.5" data-testid="v4-lanes">
          {lanes.map((lane) => (
            <li key={lane.lane} className="flex items-center gap-1.5">
              <span className="font-mono text-[12px]">{lane.lane}</span>
              <span className="text-muted">→</span>
              {lane.leafId === null ? <span className="text-muted">(empty)</span> : <EntryLink id={lane.leafId} />}
              {lane.leafId === entry.id ? <Chip tone="accent">leaf here</Chip> : null}
            </li>
          ))}
        </ul>
      </Field>
    </Fields>
  );
}

export function EntryBody({ entry }: { entry: TreeEntry }) {
  return (
    <>
      <EntryTypeBody entry={entry} />
      {entry.type === "message" || entry.type === "custom_message" ? <EditedBy entry={entry} /> : null}
      <V4Lanes entry={entry} />
    </>
  );
}

function EntryTypeBody({ entry }: { entry: TreeEntry }) {
  switch (entry.type) {
    case "message":
      if (isObject(entry.message) && entry.message.role === "system") return <SystemMessageBody message={entry.message} />;
      return isObject(entry.message) ? (
        <MessageBody message={entry.message} />
      ) : (
        <p className="text-[12.5px] text-red-700 dark:text-red-300">
          This message entry has no message object: pi throws (reading &apos;role&apos;) when it builds a context through it.
        </p>
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
          <NotDisplayed display={entry.display}>
            <MessageContent content={entry.content} />
          </NotDisplayed>
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
          <Section title="Summary">
            {entry.summary ? <Markdown text={String(entry.summary)} /> : <p className="text-[12px] text-muted">(empty: pi sends nothing for it)</p>}
          </Section>
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
          <Field label="name">
            {typeof entry.name === "string" && entry.name.trim() ? entry.name : <span className="text-muted">(empty: clears the name)</span>}
          </Field>
        </Fields>
      );
    case "usage":
      return <UsageBody entry={entry} />;
    case "context_edit":
      return <ContextEditBody entry={entry} />;
    case "leaf":
      return (
        <Fields>
          <Field label="moves the leaf to">
            {typeof entry.targetId === "string" ? (
              <EntryLink id={entry.targetId} />
            ) : (
              <span className="text-muted">null: before the first entry (the next entry is a new root)</span>
            )}
          </Field>
        </Fields>
      );
    default:
      return (
        <p className="text-[12.5px] text-muted">
          {typeof entry.type === "string" ? `Entry type "${entry.type}" is unknown to this viewer.` : "This entry has no type."} pi keeps it as an ordinary tree
          node — it can be a parent and move the leaf — but sends nothing to the model. The raw JSON below is all there is.
        </p>
      );
  }
}

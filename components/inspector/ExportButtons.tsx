"use client";

/**
 * "Export fork" (the file pi's createBranchedSession would write at the
 * selected entry), "Export transcript" (Markdown of the path) and "Export
 * HTML" (the same path as one inert, self-contained HTML file). Each is
 * disabled, with pi's reason shown, where it cannot be made.
 */
import { useId, useState } from "react";
import { sourcePathOf } from "@/lib/client/session-source";
import { useViewer } from "@/components/viewer/store";
import { transcriptFileName } from "@/lib/export/file-names";
import { describeRedaction, redactJsonl, redactSession, type RedactionCounts } from "@/lib/export/redact";
import type { Session } from "@/lib/session";
import { transcriptMarkdown, transcriptTitle } from "@/lib/export/markdown-transcript";
import { downloadText } from "./download";
import { forkProblem, transcriptProblem, type ForkKind } from "./export-readiness";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

interface ExportFile {
  name: string;
  text: string;
  mime: string;
  counts: RedactionCounts | null;
}

const NOTHING_TO_LOAD = async () => null;

const FORK_TITLES: Record<ForkKind, string> = {
  ca: "Download the session file pi-coding-agent's createBranchedSession would write when branching here: `pi --session FILE` resumes it",
  "hx-at":
    "Download what the harness's repo.fork(source, {entryId, position: \"at\"}) writes: its path to here copied verbatim; pi-agent-core's JsonlSessionRepo opens it",
  "hx-before":
    "Download what the harness's repo.fork(source, {entryId, position: \"before\"}) writes: the path up to this user message's parent, to ask again; pi-agent-core's JsonlSessionRepo opens it",
};

const buttonClass =
  "inline-flex h-6 items-center gap-1 rounded border border-border bg-background px-2 text-[12px] font-medium hover:bg-surface focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-50";

export function ExportButtons({ session, id }: { session: Session; id: string }) {
  const source = useViewer((s) => s.source);
  const [failure, setFailure] = useState<string | null>(null);
  // UI-only: whether the next export masks likely secrets, and what the last one masked
  const [redact, setRedact] = useState(false);
  const [redaction, setRedaction] = useState<string | null>(null);
  // a file the harness reads forks as the harness does; the coding agent's fork stays a choice
  const harness = session.rules.id === "hx";
  const [forkKind, setForkKind] = useState<ForkKind>("hx-at");
  const kind: ForkKind = harness ? forkKind : "ca";
  // whether pi's fork and a transcript can be made does not depend on content: light entries answer it
  const problems = useSessionMemo((open) => ({ fork: forkProblem(open, id, kind), transcript: transcriptProblem(open, id) }), [id, kind], { light: true }) ?? {
    fork: "No session",
    transcript: "No session",
  };
  const noteId = useId();

  /**
   * Downloads the file `build` makes and says what it masked (counts: null when the toggle was off). `load`
   * brings what `build` needs that the page does not hold yet.
   */
  async function runExport<T>(build: (loaded: T) => ExportFile, load: () => Promise<T>) {
    try {
      const loaded = await load();
      // a session shown before its text came would read what it exports a frame at a time: it waits for the text
      await session.tree.textCame();
      // the content of what is exported is read from the file first, when the session reads it on demand
      const file = await session.withContent(() => build(loaded));
      downloadText(file.name, file.text, file.mime);
      setRedaction(file.counts ? describeRedaction(file.counts) : null);
      setFailure(null);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  }

  // the fork is pi's fork of the file as it is, masked as text afterwards; transcripts are made from a masked session
  const exportFork = () =>
    void runExport(() => {
      const sourcePath = sourcePathOf(source);
      const options = { ...(sourcePath ? { sourcePath } : {}), ...(kind === "hx-before" ? { position: "before" as const } : {}) };
      const fork = session.fork(id, options, kind === "ca" ? "ca" : "hx");
      const redacted = redact ? redactJsonl(fork.text) : null;
      return { name: fork.fileName, text: redacted ? redacted.value : fork.text, mime: "application/x-ndjson", counts: redacted?.counts ?? null };
    }, NOTHING_TO_LOAD);

  function exportTranscript(format: "markdown" | "html") {
    void runExport(
      (html) => {
        const redacted = redact ? redactSession(session) : null;
        const from = redacted ? redacted.value : session;
        const name = transcriptFileName(
          from.name ?? transcriptTitle(from, from.branch(id)),
          typeof session.header?.id === "string" ? session.header.id : null,
          id,
        );
        const counts = redacted?.counts ?? null;
        if (html) return { name: name.replace(/\.md$/, ".html"), text: html.transcriptHtml(from, id), mime: "text/html", counts };
        return { name, text: transcriptMarkdown(from, id), mime: "text/markdown", counts };
        // the HTML renderers and the highlighter are loaded when that file is asked for, not with the page
      },
      format === "html" ? () => import("@/components/transcript/transcript-html") : NOTHING_TO_LOAD,
    );
  }

  const notes = [
    problems.fork && `Fork unavailable: ${problems.fork}`,
    problems.transcript && `Transcript unavailable: ${problems.transcript}`,
    failure && `Export failed: ${failure}`,
  ].filter(Boolean);
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-1.5">
        <button
          type="button"
          className={buttonClass}
          onClick={exportFork}
          disabled={problems.fork !== null}
          aria-describedby={problems.fork ? noteId : undefined}
          title={problems.fork ?? FORK_TITLES[kind]}
        >
          Export fork
        </button>
        {harness ? (
          <select
            aria-label="Fork as"
            data-testid="fork-kind"
            value={forkKind}
            onChange={(event) => setForkKind(event.target.value as ForkKind)}
            className="h-6 rounded border border-border bg-background px-1 text-[12px]"
            title={FORK_TITLES[kind]}
          >
            <option value="hx-at">harness: at this entry</option>
            <option value="hx-before">harness: before this user message</option>
            <option value="ca">coding agent (pi --session)</option>
          </select>
        ) : null}
        <button
          type="button"
          className={buttonClass}
          onClick={() => exportTranscript("markdown")}
          disabled={problems.transcript !== null}
          aria-describedby={problems.transcript ? noteId : undefined}
          title={problems.transcript ?? "Download the path root → this entry as Markdown"}
        >
          Export transcript
        </button>
        <button
          type="button"
          className={buttonClass}
          onClick={() => exportTranscript("html")}
          disabled={problems.transcript !== null}
          aria-describedby={problems.transcript ? noteId : undefined}
          title={problems.transcript ?? "Download the path root → this entry as one self-contained HTML file (no scripts, no network requests)"}
        >
          Export HTML
        </button>
        <label
          className="ml-1 inline-flex items-center gap-1 text-[12px] text-muted"
          title="Mask likely secrets (API keys, tokens, private keys, passwords in URLs) in the exported file; the README lists the patterns"
        >
          <input type="checkbox" className="accent-accent" checked={redact} onChange={(event) => setRedact(event.target.checked)} data-testid="redact-toggle" />
          Redact secrets
        </label>
      </div>
      {redaction !== null ? (
        <p role="status" className="text-[11.5px] text-muted" data-testid="redaction-note">
          {redaction}
        </p>
      ) : null}
      {notes.length ? (
        <p id={noteId} className="text-[11.5px] text-red-700 dark:text-red-300">
          {notes.join(" · ")}
        </p>
      ) : null}
    </div>
  );
}

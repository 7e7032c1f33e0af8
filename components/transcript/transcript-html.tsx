/**
 * The HTML transcript file: the transcript of a path drawn by TranscriptDocument with react-dom/server, its code
 * highlighted at once, inside the inert page of lib/export/html-transcript.ts with the stylesheet made for it
 * (transcript-css.ts). The app loads this module when the reader asks for the file, not before.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { transcriptDocument } from "@/lib/export/html-transcript";
import { highlightLines } from "@/lib/render/highlight";
import type { Session } from "@/lib/session";
import { transcriptOf, type TranscriptOptions } from "@/lib/session/features/transcript-model";
import { StaticRendering, type SyncHighlight } from "./static-render";
import { TRANSCRIPT_CSS } from "./transcript-css";
import { TranscriptDocument } from "./TranscriptDocument";

/** a longer block stays plain: one grammar walk over it would hold the export up for seconds */
const HIGHLIGHT_MAX_CHARS = 256 * 1024;

const highlight: SyncHighlight = (code, language) => (code.length <= HIGHLIGHT_MAX_CHARS ? highlightLines(code, language) : null);

/** The transcript of `session.branch(id)` as an HTML document. Throws what `branch` throws. */
export function transcriptHtml(session: Session, id: string, options: TranscriptOptions = {}): string {
  const transcript = transcriptOf(session, id, options);
  const body = renderToStaticMarkup(
    <StaticRendering highlight={highlight}>
      <TranscriptDocument transcript={transcript} />
    </StaticRendering>,
  );
  return transcriptDocument(transcript.title, body, TRANSCRIPT_CSS);
}

// What the Share dialog shows before anything is written: how big the chosen scope is, what the redaction
// rules would mask and where (the same code that masks, so the counts are the file's), and how much dropping
// the images would save.
import type { RedactionRules } from "@/lib/export/redact";
import { findRedactions, type RedactionFindings } from "@/lib/export/redaction-find";
import type { Session } from "@/lib/session/session";
import { dropImages, type DroppedImages } from "./drop-images";
import { scopedText, type ShareDataOptions } from "./share-data";
import { utf8Length } from "./utf8-length";

export interface SharePreview {
  lines: number;
  /** UTF-8 bytes of the scope's lines */
  bytes: number;
  /** null when no rule is on */
  findings: RedactionFindings | null;
  /** the images the scope holds (what dropping them would remove) */
  images: DroppedImages;
}

export function sharePreview(
  session: Session,
  sourceText: string,
  scope: Pick<ShareDataOptions, "scope" | "entryId" | "sourcePath">,
  rules: RedactionRules | null,
  limit = 200,
): SharePreview {
  const { text } = scopedText(session, sourceText, scope);
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const images = { dropped: 0, bytes: 0 };
  for (const line of lines) {
    // only lines that can hold an image block are parsed
    if (!line.includes('"image"')) continue;
    try {
      dropImages(JSON.parse(line), images);
    } catch {
      // not JSON: no image block to drop
    }
  }
  return {
    lines: lines.length,
    bytes: utf8Length(text),
    findings: rules && rules.list.length > 0 ? findRedactions(lines, rules, { limit }) : null,
    images,
  };
}

// Where a loaded session's content is read from when it is shown (a load asks once its first lines or snapshot come).
import { ElidedLines } from "@/lib/session/read/elided-lines";
import type { LineTexts } from "@/lib/session/read/line-texts";
import { RangedLines } from "@/lib/session/read/ranged-lines";
import { blobSource, rangeSource } from "./byte-sources";
import type { ParseRequest } from "./parse-protocol";

/**
 * Where the session's content is read from when it is shown: a picked file, a library file and a URL whose
 * server serves byte ranges are read again by range, so the page keeps none of their content; a share file,
 * another URL and a file a page opened from disk reads are kept in memory (their bytes cannot be read again
 * by range).
 */
export function contentSource(request: ParseRequest, fileName: string, { shared, ranged }: { shared: boolean; ranged: boolean }): LineTexts {
  if (shared) return new ElidedLines();
  if (request.kind === "file" && window.location.protocol !== "file:") return new RangedLines(blobSource(request.file), { name: fileName });
  if (request.kind === "url" && ranged) return new RangedLines(rangeSource(request.url), { name: fileName });
  return new ElidedLines();
}

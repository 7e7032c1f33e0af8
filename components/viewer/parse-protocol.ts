// Messages between the viewer page and parse.worker.ts. The worker reads bytes and splits and JSON-parses
// lines; the page feeds them to a SessionParser, which builds the index where the UI can use it.
import type { ReadLine } from "@/lib/session/lines";

export type ParseRequest =
  /** a file picked or dropped by the user: read in the browser, never sent anywhere */
  | { kind: "file"; file: Blob }
  /** a URL (same origin, e.g. /api/sessions/raw?path=…, or a CORS-enabled one) fetched by the worker */
  | { kind: "url"; url: string };

export type ParseReply =
  | { type: "lines"; lines: ReadLine[]; done: number; total: number }
  /** the end; `last` is the final line when the input did not end with a newline */
  | { type: "end"; lines: ReadLine[]; last: ReadLine | null; done: number; total: number }
  | { type: "error"; error: LoadError };

export type LoadError =
  | { kind: "http"; status: number; message: string }
  | { kind: "network"; message: string }
  | { kind: "read"; message: string };

// Messages between the viewer page and parse.worker.ts. The worker reads and decodes bytes; the page feeds
// the text to a SessionParser, one slice per task, which builds the index where the UI can use it. Meanwhile the
// worker checks the same text against pi's schemas, on the machine's other core.

export type ParseRequest =
  /** a file picked or dropped by the user: read in the browser, never sent anywhere */
  | { kind: "file"; file: Blob }
  /** a URL (same origin, e.g. /api/sessions/raw?path=…, or a CORS-enabled one) fetched by the worker */
  | { kind: "url"; url: string };

export type ParseReply =
  /** the next slice of the file's text (any length; lines may span slices) */
  | { type: "text"; text: string; done: number; total: number }
  /**
   * the end, with the decoder's last characters; `complete`: the bytes up to and including the last newline,
   * where a live tail of the file resumes (it re-reads a final line without newline in full)
   */
  | { type: "end"; text: string; done: number; total: number; complete: number }
  /** after the end: schemaIssues of the text's newline-ended lines (lib/session SchemaChecked), checked in the worker */
  | { type: "schema"; lines: number; issues: ReadonlyMap<number, string[]> }
  | { type: "error"; error: LoadError };

export type LoadError =
  | { kind: "http"; status: number; message: string }
  | { kind: "network"; message: string }
  | { kind: "read"; message: string };

// Messages between the viewer page and parse.worker.ts. The worker reads the bytes and turns them into light
// lines (lib/session/read/light-lines.ts: long strings cut, the rest escaped to ASCII, before decoding, the slow
// part in a browser); the page decodes them and builds the index, one slice per task. Content is read again
// from the file when shown (lib/session/read/ranged-lines.ts); the changed lines' bytes are kept only where the
// file cannot be read again (a share file, a URL elsewhere).
// Meanwhile the worker checks the light text against pi's schemas (the same issues as the full text's).
// A share file's data (lib/share) is opened here too: unsealed, decompressed, its manifest posted first.
import type { SnapshotParts } from "@/lib/session/read/object-snapshot";
import type { ShareManifest } from "@/lib/share/manifest";

/** what opens a sealed share payload: the password, or the key from the link's #k= */
export type ShareSecret = { password: string } | { key: string };

export type ParseRequest =
  /** a file picked or dropped by the user: read in the browser, never sent anywhere */
  | { kind: "file"; file: Blob }
  /**
   * a URL (same origin, e.g. /api/sessions/raw?path=…, or a CORS-enabled one) fetched by the worker; a share
   * file (HTML) found there is opened as one
   */
  | {
      kind: "url";
      url: string;
      secret?: ShareSecret;
      /**
       * a library file's light index (/api/sessions/light?path=…), read instead of `url` where the server has one: its
       * content is then read from `url` by byte range
       */
      light?: string;
    }
  /**
   * a picked file's bytes, read by the page: a worker that a file:// page starts in WebKit may not read the
   * File itself
   */
  | { kind: "bytes"; bytes: Uint8Array }
  /** the payload text of the share file the page is (its <script id="pi-share">) */
  | { kind: "share"; text: string; secret?: ShareSecret }
  /**
   * a slice's light lines, handed back once the page has decoded them (transferred): the worker checks them
   * against pi's schemas when all are back, without keeping a copy meanwhile
   */
  | { kind: "read"; light: Uint8Array }
  /**
   * after the end of lines that came with a snapshot (which the worker keeps nothing of): check these, the lines'
   * light text, when the restored index brought no check of its own (or the page read the lines after all)
   */
  | { kind: "check"; lights: Uint8Array[] }
  /**
   * after a snapshot: the page has shown the session, or will not before its lines have come; the worker reads
   * the rest of them only now, so that the cores and the server serve what the page reads to show it first
   */
  | { kind: "resume" };

export type ParseReply =
  /**
   * the next whole lines: their light lines as UTF-8, the byte buffers of the lines whose light text differs
   * and where each such line sits in them (lib/session LightChunk), all transferred
   */
  | {
      type: "lines";
      light: Uint8Array;
      raws: Uint8Array[];
      cut: Int32Array;
      offsets: Float64Array;
      /** where each newline of `light` is (found by the worker: the page need not scan the text) */
      newlines: Int32Array;
      done: number;
      total: number;
      /** the worker kept a copy of the light bytes for its schema check: the page keeps these and hands nothing back */
      kept?: boolean;
    }
  /** lines read from one piece of a stream of frames (the server's light index): their buffers may be shared */
  | { type: "batch"; replies: Extract<ParseReply, { type: "lines" }>[] }
  /**
   * before a library file's lines: the snapshot of the index they make, kept by the server (session-snapshot.ts),
   * its JSON parsed here; the page restores the index at once, shows it, and keeps the lines as they come
   * instead of reading them
   */
  | {
      type: "snapshot";
      snapshot: SnapshotParts;
      /**
       * the kept light index the frames come from (x-light-index-id), whose frames the page may read by range
       * (&index=) to show the restored index before they have all come
       */
      index: string | null;
    }
  /** progress while bytes arrive that complete no line yet */
  | { type: "progress"; done: number; total: number }
  /**
   * the end: `last` is the final line without newline, whole ("" if none); `complete`: the bytes up to and
   * including the last newline, where a live tail of the file resumes (it re-reads a final line in full)
   */
  | { type: "end"; last: string; done: number; total: number; complete: number }
  /** after the end: schemaIssues of the newline-ended lines (lib/session SchemaChecked), checked in the worker */
  | { type: "schema"; lines: number; issues: ReadonlyMap<number, string[]> }
  /**
   * a URL's file, before its lines: whether its server serves byte ranges of it as it is (Accept-Ranges, no
   * content coding), so that its content can be read again by range when shown
   */
  | { type: "ranges"; ranged: boolean }
  /** a share file's manifest, before its lines */
  | { type: "manifest"; manifest: ShareManifest }
  | { type: "error"; error: LoadError };

export type LoadError =
  | { kind: "http"; status: number; message: string }
  | { kind: "network"; message: string }
  | { kind: "read"; message: string }
  /** a sealed share file: the password or key is missing (wrong: false) or does not open it (wrong: true) */
  | { kind: "locked"; lock: "password" | "key"; wrong: boolean; message: string };

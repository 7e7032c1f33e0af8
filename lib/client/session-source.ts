/** Where the open session came from: it decides how the file is read, followed, shared and linked to. */
export type SessionSource =
  /** absolutePath: where the file is on the server's disk (pi writes it as a fork's parentSession) */
  | { kind: "server"; path: string; absolutePath?: string }
  /** file: the picked file itself, read again when the session is shared (never sent anywhere) */
  | { kind: "upload"; name: string; size: number; file?: Blob }
  | { kind: "url"; url: string }
  | { kind: "sample"; path: string }
  /** the data of the share file the page is */
  | { kind: "share" };

/** The source file's absolute path, when the server told us (pi writes it as the fork's parentSession). */
export function sourcePathOf(source: SessionSource | null): string | undefined {
  return source?.kind === "server" && source.absolutePath ? source.absolutePath : undefined;
}

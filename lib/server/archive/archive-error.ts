// What went wrong talking to the archive, said so that the person who typed the URL knows what to change. The
// URL's password never appears in a message.
import pg from "pg";
import { ArchiveSchemaError } from "./archive-schema";

export class ArchiveError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ArchiveError";
  }
}

/**
 * For a page's `.catch`: an archive that cannot be read, handed back for the page to say so (ArchiveUnavailable);
 * anything else thrown on, for the error page.
 */
export function archiveFailure(error: unknown): ArchiveError {
  if (error instanceof ArchiveError) return error;
  throw error;
}

/** The URL as it may be shown: its password replaced. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return decodeURIComponent(parsed.toString());
  } catch {
    return "(not a URL)";
  }
}

/** Checks that `url` is a PostgreSQL URL before anything connects with it. */
export function checkArchiveUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ArchiveError(`not a database URL: ${JSON.stringify(url.replace(/:[^:@/]*@/, ":***@"))} (expected postgres://USER:PASSWORD@HOST:PORT/DATABASE)`);
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:")
    throw new ArchiveError(`${shownUrl(url)}: only PostgreSQL URLs are supported (postgres://USER:PASSWORD@HOST:PORT/DATABASE)`);
}

/**
 * Whether `error` came from talking to a PostgreSQL server: its answer (a SQLSTATE), or a network failure reaching
 * it (a file's errors are never these).
 */
export function isDatabaseFailure(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ECONNREFUSED" || code === "ECONNRESET" || code === "ETIMEDOUT" || code === "ENOTFOUND" || code === "EAI_AGAIN";
}

/** SQLSTATE codes (PostgreSQL's appendix A) and system errors, as what the user should do. */
export function archiveError(error: unknown, url: string): ArchiveError {
  if (error instanceof ArchiveError) return error;
  const where = shownUrl(url);
  if (error instanceof ArchiveSchemaError) return new ArchiveError(`${where}: ${error.message}`, { cause: error });
  const code = (error as { code?: unknown } | null)?.code;
  const text = error instanceof Error ? error.message : String(error);
  const say = (message: string) => new ArchiveError(`${where}: ${message}`, { cause: error });
  switch (code) {
    case "ECONNREFUSED":
    case "ENOENT":
      return say("no PostgreSQL server answers there (is it running, and is the host, port or socket right?)");
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return say("the host name does not resolve");
    case "ETIMEDOUT":
      return say("the server did not answer in time (a firewall, or the wrong host?)");
    case "28P01":
      return say("the server refused the login: wrong password for this user");
    case "28000":
      return say(`the server refused the login: ${text}`);
    case "3D000":
      return say(`${text} (create it with: createdb DATABASE, or CREATE DATABASE in psql)`);
    case "42501":
      return say(`the user may not do this: ${text} (it needs to create tables in the database, or the archive's tables to exist already)`);
    case "53100":
      return say(`the database server's disk is full: ${text}. Nothing of this push was half-written; free space and push again`);
    case "53200":
      return say(`the database server ran out of memory: ${text}`);
    case "53300":
      return say("the server has no connection left (max_connections): try again, or raise it");
    case "57014":
      return say(`it did not answer in time (${text}): ask again, or ask less (a narrower search, a shorter range)`);
    case "57P01":
    case "57P02":
    case "57P03":
      return say(`the server is shutting down or starting up: ${text}`);
    default:
      return say(text);
  }
}

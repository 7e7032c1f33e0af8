// What a person is told when the archive cannot be reached or written: the conditions a test server cannot be
// brought into (a full disk, a wrong password under trust authentication) are the server's own error codes.
import { describe, expect, it } from "vitest";
import { archiveError, checkArchiveUrl, shownUrl } from "./archive-error";

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
const URL_WITH_PASSWORD = "postgres://team:s3cret-pass@db.example:5432/pi";

describe("archive errors", () => {
  it("never show the URL's password", () => {
    expect(shownUrl(URL_WITH_PASSWORD)).toBe("postgres://team:***@db.example:5432/pi");
    for (const error of [pgError("28P01", "password authentication failed"), pgError("53100", "could not extend file"), new Error("x")])
      expect(archiveError(error, URL_WITH_PASSWORD).message).not.toContain("s3cret");
    expect(() => checkArchiveUrl("postgres//team:s3cret-pass@db")).toThrow(/not a database URL/);
    try {
      checkArchiveUrl("postgres//team:s3cret-pass@db");
    } catch (error) {
      expect(String(error)).not.toContain("s3cret");
    }
  });

  it("say what to do for each way a push or a server fails", () => {
    const say = (code: string, message = "m") => archiveError(pgError(code, message), URL_WITH_PASSWORD).message;
    expect(say("28P01")).toContain("wrong password");
    expect(say("53100", "could not extend file: No space left on device")).toMatch(/disk is full.*Nothing of this push was half-written/);
    expect(say("3D000", 'database "pi" does not exist')).toContain("createdb");
    expect(say("ECONNREFUSED")).toContain("no PostgreSQL server answers there");
    expect(say("ENOTFOUND")).toContain("does not resolve");
    expect(say("53300")).toContain("max_connections");
    expect(say("42501", "permission denied for schema public")).toContain("create tables");
  });

  it("refuse URLs of other databases before connecting", () => {
    expect(() => checkArchiveUrl("mysql://db/pi")).toThrow(/only PostgreSQL URLs/);
    expect(() => checkArchiveUrl("postgresql://db/pi")).not.toThrow();
  });
});

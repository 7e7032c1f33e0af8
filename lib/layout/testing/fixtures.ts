/**
 * Test support: the shared fixtures, read through the core library.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Session } from "../../session";
import { FIXTURES_DIR, listFixtures } from "../../session/testing/golden";

export function fixtureSession(name: string): Session {
  const bytes = readFileSync(path.join(FIXTURES_DIR, `${name}.jsonl`));
  return Session.fromText(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes));
}

/** Every shared fixture (real sessions included), as name + session. */
export function allFixtureSessions(): { name: string; session: Session }[] {
  return listFixtures().map((fixture) => ({
    name: fixture.name,
    session: Session.fromText(new TextDecoder("utf-8", { ignoreBOM: true }).decode(readFileSync(fixture.file))),
  }));
}

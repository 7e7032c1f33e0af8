import { Session } from "../session";
import type { JsonObject } from "../types";

export const LINEAR_HEADER = {
  type: "session",
  version: 3,
  id: "019c0000-0000-7000-8000-000000000000",
  timestamp: "2026-01-01T00:00:00.000Z",
  cwd: "/home/dev/demo",
};

/** A linear session from message objects (ids m1, m2, …, a second apart), then `extra` entries as given. */
export function linearSession(messages: JsonObject[], extra: JsonObject[] = [], header: JsonObject = LINEAR_HEADER): Session {
  const entries = messages.map((message, i) => ({
    type: "message",
    id: `m${i + 1}`,
    parentId: i ? `m${i}` : null,
    timestamp: `2026-01-01T00:00:0${i}.000Z`,
    message,
  }));
  return Session.fromText([header, ...entries, ...extra].map((e) => `${JSON.stringify(e)}\n`).join(""));
}

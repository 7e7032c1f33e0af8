/**
 * Test support: tiny session files built from a few lines of description, read
 * through the real core library (so layout tests see what the viewer sees).
 */
import { Session } from "../../session";

export interface EntrySpec {
  id: string;
  parentId: string | null;
  type?: string;
  /** message role, for type "message" (default "user") */
  role?: string;
  text?: string;
  /** seconds after the epoch used below; defaults to the line order */
  at?: number;
  extra?: Record<string, unknown>;
}

const EPOCH = Date.parse("2026-01-05T09:00:00.000Z");

export function entryLine(spec: EntrySpec, index: number): string {
  const type = spec.type ?? "message";
  const timestamp = new Date(EPOCH + (spec.at ?? index) * 1000).toISOString();
  const base: Record<string, unknown> = { type, id: spec.id, parentId: spec.parentId, timestamp };
  if (type === "message") {
    const role = spec.role ?? "user";
    const text = spec.text ?? spec.id;
    base.message =
      role === "assistant"
        ? { role, content: [{ type: "text", text }], provider: "anthropic", model: "claude-test", stopReason: "stop", timestamp: 0 }
        : role === "toolResult"
          ? { role, toolCallId: "t", toolName: "read", content: [{ type: "text", text }], isError: false, timestamp: 0 }
          : { role, content: text, timestamp: 0 };
  }
  return JSON.stringify({ ...base, ...spec.extra });
}

export function sessionText(specs: readonly EntrySpec[]): string {
  const header = JSON.stringify({ type: "session", version: 3, id: "test-session", timestamp: new Date(EPOCH).toISOString(), cwd: "/tmp/x" });
  return [header, ...specs.map(entryLine)].join("\n") + "\n";
}

export function buildSession(specs: readonly EntrySpec[]): Session {
  return Session.fromText(sessionText(specs));
}

/** A linear chain e0 → e1 → … of `n` alternating user/assistant messages. */
export function chainSpecs(n: number, prefix = "e", parentId: string | null = null, startAt = 0): EntrySpec[] {
  const out: EntrySpec[] = [];
  let parent = parentId;
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${i}`;
    out.push({ id, parentId: parent, role: i % 2 ? "assistant" : "user", at: startAt + i });
    parent = id;
  }
  return out;
}

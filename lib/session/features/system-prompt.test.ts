// Side by side with pi: the prompt and tools replayed from system messages equal pi-ai 1.6.0's own
// getCurrentSystemMessage (what a provider without mid-conversation system messages is sent), each message's texts
// equal getSystemMessageText / renderSystemMessageUpdate, and what an update changes is what pi 1.6.0's export
// heads it with. Over random sequences of system messages and the newest fixtures' contexts at every entry.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Session } from "../session";
import type { ContextMessage, JsonObject } from "../types";
import { piExportRenderer } from "../testing/pi-export-template";
import { Rng } from "../testing/rng";
import { systemChange, systemMessageText, systemPromptOf, systemUpdateText, toolsAddedBy } from "./system-prompt";

interface PiSystemMessage {
  content: unknown;
  sections?: Record<string, string>;
  toolsAdded?: { name: string }[];
}
interface PiTranscript {
  getCurrentSystemMessage(messages: unknown[]): PiSystemMessage | undefined;
}
interface PiText {
  getSystemMessageText(message: unknown): string;
  renderSystemMessageUpdate(message: unknown): string;
}

const PI_AI = path.resolve(__dirname, "../../../node_modules/@earendil-works/pi-ai/dist/utils");
const load = async <T>(file: string) => (await import(/* @vite-ignore */ path.join(PI_AI, file))) as T;
const NEWEST = path.resolve(__dirname, "../../../e2e/fixtures/sessions/--home-dev-projects-newest--");

const NAMES = ["read", "bash", "edit", "write", "grep", "web_search"];
const SECTIONS = ["identity", "project", "rules", "skills", "42"];

function randomTool(rng: Rng, name: string): JsonObject {
  const properties: JsonObject = {};
  for (let i = rng.int(4); i > 0; i--) {
    properties[rng.pick(["path", "command", "limit", "pattern"])] = rng.chance(0.5)
      ? { type: rng.pick(["string", "number", "boolean"]), description: `the ${name} argument ${i}` }
      : { type: ["string", "null"] };
  }
  return {
    name,
    description: rng.chance(0.9) ? `${name}: does ${rng.int(100)} things` : "",
    parameters: { type: "object", properties, ...(rng.chance(0.5) ? { required: Object.keys(properties).slice(0, 1) } : {}) },
  };
}

function randomSystemMessage(rng: Rng): JsonObject {
  const message: JsonObject = { role: "system", timestamp: rng.chance(0.9) ? 1_770_000_000_000 + rng.int(1000) : undefined! };
  if (message.timestamp === undefined) delete message.timestamp;
  message.content = rng.weighted<unknown>([
    [4, `instructions ${rng.int(50)}`],
    [2, ""],
    [
      2,
      [
        { type: "text", text: "part one" },
        { type: "image", data: "x" },
        { type: "text", text: `part ${rng.int(9)}` },
      ],
    ],
    [1, []],
  ]);
  if (rng.chance(0.6)) {
    const sections: JsonObject = {};
    for (let i = rng.range(1, 3); i > 0; i--) sections[rng.pick(SECTIONS)] = rng.chance(0.25) ? null : `<${rng.pick(SECTIONS)}>text ${rng.int(99)}</>`;
    message.sections = sections;
  }
  if (rng.chance(0.6)) message.toolsAdded = Array.from({ length: rng.range(0, 3) }, () => randomTool(rng, rng.pick(NAMES)));
  if (rng.chance(0.3)) message.toolsRemoved = Array.from({ length: rng.range(0, 2) }, () => ({ name: rng.pick(NAMES) }));
  return message;
}

const asContext = (messages: JsonObject[]): ContextMessage[] => messages.map((message, i) => ({ entryId: `e${i}`, source: "stored", message }));

describe("system prompt, as pi-ai 1.6.0 replays it", () => {
  it("random sequences of system messages among other messages", async () => {
    const pi = await load<PiTranscript>("transcript.js");
    const text = await load<PiText>("text.js");
    const page = piExportRenderer([]);
    const rng = new Rng(20261206);
    let prompts = 0;
    for (let run = 0; run < 400; run++) {
      const messages = Array.from({ length: rng.range(0, 7) }, () =>
        rng.chance(0.6) ? randomSystemMessage(rng) : { role: "user", content: "hi", timestamp: 1 },
      ) as JsonObject[];
      const ours = systemPromptOf(asContext(messages));
      const theirs = pi.getCurrentSystemMessage(messages);
      expect(ours === null, `run ${run}`).toBe(theirs === undefined);
      if (!ours || !theirs) continue;
      prompts++;
      expect(ours.text).toBe(text.getSystemMessageText(theirs));
      expect(ours.sections.map((s) => [s.name, s.text])).toEqual(Object.entries(theirs.sections ?? {}));
      expect(ours.tools.map((t) => t.name)).toEqual((theirs.toolsAdded ?? []).map((t) => t.name));
      expect(ours.from.map((f) => f.entryId)).toEqual(messages.flatMap((m, i) => (m.role === "system" ? [`e${i}`] : [])));
      for (const message of messages.filter((m) => m.role === "system")) {
        expect(systemMessageText(message)).toBe(text.getSystemMessageText(message));
        expect(systemUpdateText(message)).toBe(text.renderSystemMessageUpdate(message));
        expect(systemChange(message)).toBe(page.describeSystemUpdate(message));
      }
    }
    expect(prompts).toBeGreaterThan(200);
  });

  it("reads a tool's parameters from its JSON schema as pi's export lists them", () => {
    const [tool] = toolsAddedBy({
      role: "system",
      toolsAdded: [
        {
          name: "read",
          description: "Read a file",
          parameters: {
            type: "object",
            properties: { path: { type: "string", description: "where" }, limit: { type: ["number", "null"] }, raw: {} },
            required: ["path"],
          },
        },
      ],
    });
    expect(tool).toEqual({
      name: "read",
      description: "Read a file",
      parameters: [
        { name: "path", type: "string", required: true, description: "where" },
        { name: "limit", type: "number | null", required: false, description: null },
        { name: "raw", type: "any", required: false, description: null },
      ],
    });
  });

  it("the newest fixtures: the context at every entry", async () => {
    const pi = await load<PiTranscript>("transcript.js");
    const text = await load<PiText>("text.js");
    let checked = 0;
    for (const name of readdirSync(NEWEST).filter((f) => f.endsWith(".jsonl"))) {
      const session = Session.fromText(readFileSync(path.join(NEWEST, name), "utf8"));
      for (const entry of session.tree.entries) {
        if (typeof entry.id !== "string") continue;
        let context;
        try {
          context = session.context(entry.id);
        } catch {
          continue; // the path's own error is the core's business
        }
        const ours = systemPromptOf(context.messages);
        const theirs = pi.getCurrentSystemMessage(context.messages.map((m) => m.message));
        expect(ours === null).toBe(theirs === undefined);
        if (ours && theirs) {
          expect(ours.text).toBe(text.getSystemMessageText(theirs));
          expect(ours.tools.map((t) => t.name)).toEqual((theirs.toolsAdded ?? []).map((t) => t.name));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});

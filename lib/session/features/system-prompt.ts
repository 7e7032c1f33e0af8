/**
 * The system prompt and tools as pi ≥ 0.86 records them: `system` messages on the path (and a compaction's
 * `systemMessage`), the leading one the prompt, each later one a change to it. Replaying them in order gives the
 * prompt and tools in force, as pi-ai's getCurrentSystemMessage does before a provider that takes no system
 * message mid-conversation is called; the texts are pi-ai's getSystemMessageText and renderSystemMessageUpdate.
 */
import { isObject } from "../json";
import type { ContextMessage, JsonObject } from "../types";

export interface ToolParameter {
  name: string;
  /** the JSON schema's type ("string", "number | null"), "any" when it names none */
  type: string;
  required: boolean;
  description: string | null;
}

export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: ToolParameter[];
}

export interface SystemPrompt {
  /** the whole prompt pi sends: the instructions, then each section (getSystemMessageText of the replayed message) */
  text: string;
  sections: { name: string; text: string }[];
  /** the tools in force, in pi's order (a tool added again keeps its place; one removed and added again moves last) */
  tools: ToolDeclaration[];
  /** the system messages that made it, in order, each with what it changed */
  from: { entryId: string; source: ContextMessage["source"]; change: string }[];
}

export function isSystemMessage(message: unknown): message is JsonObject {
  return isObject(message) && message.role === "system";
}

/** The prompt and tools in force after the context's system messages; null when it holds none (pi < 0.86 records none). */
export function systemPromptOf(messages: readonly ContextMessage[]): SystemPrompt | null {
  const content: string[] = [];
  const sections = new Map<string, string>();
  const tools = new Map<string, JsonObject>();
  const from: SystemPrompt["from"] = [];
  let timestamp: unknown;
  for (const item of messages) {
    const message = item.message;
    if (!isSystemMessage(message)) continue;
    from.push({ entryId: item.entryId, source: item.source, change: from.length ? systemChange(message) : "the prompt" });
    timestamp ??= message.timestamp;
    const text = contentText(message.content);
    if (text.length > 0) content.push(text);
    for (const [name, value] of sectionEntries(message)) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
    for (const tool of toolList(message.toolsRemoved)) tools.delete(String(tool.name));
    for (const tool of toolList(message.toolsAdded)) tools.set(String(tool.name), tool);
  }
  // pi's own test for "there is a system message": one with a timestamp, or tools in force
  if (timestamp === undefined && tools.size === 0) return null;
  // through an object as pi's replay builds it: a name like "42" then comes before the others, as pi sends it
  const kept = Object.entries(Object.fromEntries(sections)).map(([name, text]) => ({ name, text }));
  return {
    text: [content.join("\n\n"), ...kept.map((s) => s.text)].filter((part) => part.length > 0).join("\n\n"),
    sections: kept,
    tools: [...tools.values()].map(toolDeclaration),
    from,
  };
}

/** A system message as a whole prompt (pi-ai's getSystemMessageText): its instructions, then its sections. */
export function systemMessageText(message: JsonObject): string {
  const parts = [contentText(message.content)];
  for (const [, value] of sectionEntries(message)) if (value !== null) parts.push(value);
  return parts.filter((part) => part.length > 0).join("\n\n");
}

/** A later system message as pi frames it for the model (pi-ai's renderSystemMessageUpdate). */
export function systemUpdateText(message: JsonObject): string {
  const parts: string[] = [];
  const text = contentText(message.content);
  if (text.length > 0) parts.push(text);
  for (const [name, value] of sectionEntries(message)) {
    parts.push(value === null ? `Removed system prompt section "${name}".` : `Updated system prompt section "${name}":\n\n${value}`);
  }
  return parts.join("\n\n");
}

/** What a later system message changes, as pi's export heads it: "instructions, project, -rules, tools +bash -ls". */
export function systemChange(message: JsonObject): string {
  const parts: string[] = [];
  if (contentText(message.content).length > 0) parts.push("instructions");
  for (const [name, value] of sectionEntries(message)) parts.push(value === null ? `-${name}` : name);
  const tools = [...toolList(message.toolsAdded).map((t) => `+${String(t.name)}`), ...toolList(message.toolsRemoved).map((t) => `-${String(t.name)}`)];
  if (tools.length) parts.push(`tools ${tools.join(" ")}`);
  return parts.join(", ");
}

/** The tools a system message adds, as declarations. */
export function toolsAddedBy(message: JsonObject): ToolDeclaration[] {
  return toolList(message.toolsAdded).map(toolDeclaration);
}

/** The names of the tools a system message removes. */
export function toolsRemovedBy(message: JsonObject): string[] {
  return toolList(message.toolsRemoved).map((tool) => String(tool.name));
}

/** pi-ai's contentText: a string as it is, text blocks joined by line breaks; anything else holds no text. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((block): block is JsonObject => isObject(block) && block.type === "text")
    .map((block) => (typeof block.text === "string" ? block.text : ""))
    .join("\n");
}

function sectionEntries(message: JsonObject): [string, string | null][] {
  if (!isObject(message.sections)) return [];
  return Object.entries(message.sections).map(([name, value]) => [name, value === null ? null : String(value)]);
}

function toolList(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function toolDeclaration(tool: JsonObject): ToolDeclaration {
  const schema = isObject(tool.parameters) ? tool.parameters : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return {
    name: String(tool.name),
    description: typeof tool.description === "string" ? tool.description : "",
    parameters: Object.entries(properties).map(([name, value]) => {
      const property = isObject(value) ? value : {};
      const type = Array.isArray(property.type) ? property.type.map(String).join(" | ") : typeof property.type === "string" ? property.type : "any";
      return { name, type, required: required.has(name), description: typeof property.description === "string" ? property.description : null };
    }),
  };
}

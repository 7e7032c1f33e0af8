/**
 * Where pi's schema puts the names that hold a session's structure (spec §2, §4, §15): the places redaction
 * must leave alone so a redacted file keeps its tree and reads as the same kinds of entries. Only those
 * places: an `id` or `type` inside a tool call's arguments, a tool's details or an extension's data is text
 * like any other, and so is every key pi's schema does not name there.
 */

export interface Shape {
  /** pi's field names here: kept as keys (a user rule matching "text" must not unmake every text block) */
  readonly fields?: ReadonlySet<string>;
  /** the fields whose string value is structure, given the object holding them */
  readonly structural?: (object: Record<string, unknown>) => ReadonlySet<string>;
  /** the shapes of an object's fields' values, given the object (null: none is pi's) */
  readonly children?: (object: Record<string, unknown>) => ReadonlyMap<string, Shape> | null;
  /** the shape of each element of an array */
  readonly items?: Shape;
}

/** A set of field names, written as pi's types list them. */
const names = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean));

function always<T>(value: T): () => T {
  return () => value;
}

const COST: Shape = { fields: names("input output cacheRead cacheWrite total") };
const USAGE: Shape = {
  fields: names("input output cacheRead cacheWrite cacheWrite1h reasoning totalTokens cost"),
  children: always(new Map([["cost", COST]])),
};

const TYPE = names("type");
const TYPE_AND_ID = names("type id");
const BLOCK_FIELDS = names(`type text textSignature thinking thinkingSignature redacted data mimeType
  id name arguments thoughtSignature namespace argumentsError`);

const BLOCKS: Shape = { items: { fields: BLOCK_FIELDS, structural: always(TYPE) } };
/** an assistant's blocks: a tool call's id pairs it with its result */
const ASSISTANT_BLOCKS: Shape = { items: { fields: BLOCK_FIELDS, structural: (block) => (block.type === "toolCall" ? TYPE_AND_ID : TYPE) } };

/** the role, and what a tool result and a branch summary point at */
const MESSAGE_STRUCTURAL: ReadonlyMap<unknown, ReadonlySet<string>> = new Map([
  ["toolResult", names("role toolCallId")],
  ["branchSummary", names("role fromId")],
]);
const ROLE = names("role");

const MESSAGE_PARTS: ReadonlyMap<string, Shape> = new Map([
  ["content", BLOCKS],
  ["usage", USAGE],
]);
const ASSISTANT_PARTS: ReadonlyMap<string, Shape> = new Map([
  ["content", ASSISTANT_BLOCKS],
  ["usage", USAGE],
]);

const MESSAGE: Shape = {
  fields: names(`role content timestamp api provider model responseModel responseId providerThinkingLevel thinkingLevel
    diagnostics usage stopReason errorMessage rawStopReason toolCallId toolName isError details
    command output exitCode cancelled truncated fullOutputPath excludeFromContext customType display
    summary fromId tokensBefore sections toolsAdded toolsRemoved`),
  structural: (message) => MESSAGE_STRUCTURAL.get(message.role) ?? ROLE,
  children: (message) => (message.role === "assistant" ? ASSISTANT_PARTS : MESSAGE_PARTS),
};

const ENVELOPE_NAMES = "type id parentId timestamp";
const ENVELOPE = names(ENVELOPE_NAMES);
/** the envelope and the fields that point at another entry, by entry type */
const POINTERS: ReadonlyMap<unknown, ReadonlySet<string>> = new Map([
  ["session", names("type id timestamp")],
  ["label", names(`${ENVELOPE_NAMES} targetId`)],
  ["leaf", names(`${ENVELOPE_NAMES} targetId`)],
  ["context_edit", names(`${ENVELOPE_NAMES} targetId`)],
  ["branch_summary", names(`${ENVELOPE_NAMES} fromId`)],
  ["compaction", names(`${ENVELOPE_NAMES} firstKeptEntryId`)],
]);
const KIND = names("kind");
/** pi-agent-core's v4 log, by mutation kind: lanes, facts and the ids they point at (an entry's are as above, with its lane) */
const V4_STRUCTURAL: ReadonlyMap<unknown, ReadonlySet<string>> = new Map([
  ["header", names("kind id parentSessionId")],
  ["lane", names("kind lane leafId")],
  ["fact", names("kind fact targetId")],
  ["record", names("kind id lane type runId")],
]);

/** the fields of each entry type that hold pi's messages and blocks */
const PARTS: ReadonlyMap<unknown, ReadonlyMap<string, Shape>> = new Map([
  ["message", new Map([["message", MESSAGE]])],
  ["custom_message", new Map([["content", BLOCKS]])],
  [
    "compaction",
    new Map([
      ["retainedTail", { items: MESSAGE }],
      ["systemMessage", MESSAGE],
    ]),
  ],
  ["context_edit", new Map([["replacement", { fields: names("content"), children: always(new Map([["content", BLOCKS]])) }]])],
  ["usage", new Map([["usage", USAGE]])],
]);
const V4_RECORD_PARTS: ReadonlyMap<string, Shape> = new Map([
  ["intent", { fields: KIND, structural: always(KIND) }],
  ["usage", USAGE],
]);

const V4_ENTRY = names(`${ENVELOPE_NAMES} kind lane`);
const V4_ENTRIES: ReadonlyMap<unknown, ReadonlySet<string>> = new Map([...POINTERS].map(([type, fields]) => [type, new Set([...fields, "kind", "lane"])]));

function isV4Line(line: Record<string, unknown>): boolean {
  return line.kind === "header" ? line.version === 4 : typeof line.seq === "number" && typeof line.kind === "string";
}

function lineStructural(line: Record<string, unknown>): ReadonlySet<string> {
  const entry = POINTERS.get(line.type) ?? ENVELOPE;
  if (!isV4Line(line)) return entry;
  return V4_STRUCTURAL.get(line.kind) ?? (line.kind === "entry" ? (V4_ENTRIES.get(line.type) ?? V4_ENTRY) : KIND);
}

/** The shape of a JSONL line: a header or an entry of any pi version. */
export const LINE_SHAPE: Shape = {
  fields: names(`${ENVELOPE_NAMES} version cwd parentSession metadata message provider modelId thinkingLevel summary
    firstKeptEntryId tokensBefore fromHook retainedTail systemMessage details fromId customType data content display
    targetId label name activeToolNames kind model usage note replacement
    seq lane leafId fact createdAt parentSessionId legacyParentSessionPath intent runId`),
  structural: lineStructural,
  children: (line) => (isV4Line(line) && line.kind === "record" ? V4_RECORD_PARTS : (PARTS.get(line.type) ?? null)),
};

import { z } from "zod";

/**
 * The shapes pi writes (spec §2, §4), as zod schemas. They describe, they do
 * not filter: every object is loose (unknown fields are kept), and the reader
 * never depends on them — they only produce "schema" diagnostics for entries
 * that deviate from what pi itself would write.
 */

const text = z.looseObject({ type: z.literal("text"), text: z.string() });
const image = z.looseObject({ type: z.literal("image"), data: z.string(), mimeType: z.string() });
const thinking = z.looseObject({ type: z.literal("thinking"), thinking: z.string(), thinkingSignature: z.string().optional() });
const toolCall = z.looseObject({ type: z.literal("toolCall"), id: z.string(), name: z.string(), arguments: z.unknown() });
const textOrImage = z.union([text, image]);

export const usageSchema = z.looseObject({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  totalTokens: z.number().optional(),
  cost: z.looseObject({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number(), total: z.number() }).optional(),
});

const ms = z.number();

export const userMessageSchema = z.looseObject({ role: z.literal("user"), content: z.union([z.string(), z.array(textOrImage)]), timestamp: ms });
export const assistantMessageSchema = z.looseObject({
  role: z.literal("assistant"),
  content: z.array(z.union([text, thinking, toolCall])),
  api: z.string().optional(),
  provider: z.string(),
  model: z.string(),
  usage: usageSchema.optional(),
  stopReason: z.enum(["stop", "length", "toolUse", "error", "aborted"]).optional(),
  errorMessage: z.string().optional(),
  timestamp: ms,
});
export const toolResultMessageSchema = z.looseObject({
  role: z.literal("toolResult"),
  toolCallId: z.string(),
  toolName: z.string(),
  content: z.array(textOrImage),
  isError: z.boolean(),
  timestamp: ms,
});
export const bashExecutionMessageSchema = z.looseObject({
  role: z.literal("bashExecution"),
  command: z.string(),
  output: z.string(),
  exitCode: z.number().nullable().optional(),
  cancelled: z.boolean(),
  truncated: z.boolean(),
  fullOutputPath: z.string().optional(),
  excludeFromContext: z.boolean().optional(),
  timestamp: ms,
});
export const customMessageSchema = z.looseObject({
  role: z.literal("custom"),
  customType: z.string(),
  content: z.union([z.string(), z.array(textOrImage)]),
  display: z.boolean(),
  timestamp: ms,
});
export const branchSummaryMessageSchema = z.looseObject({ role: z.literal("branchSummary"), summary: z.string(), fromId: z.string(), timestamp: ms });
export const compactionSummaryMessageSchema = z.looseObject({
  role: z.literal("compactionSummary"),
  summary: z.string(),
  tokensBefore: z.number(),
  timestamp: ms,
});

/** pi-coding-agent ≥ 0.86: a delta of the system prompt (text, named sections, tools added or removed). */
export const systemMessageSchema = z.looseObject({
  role: z.literal("system"),
  content: z.string(),
  sections: z.record(z.string(), z.string().nullable()).optional(),
  toolsAdded: z.array(z.looseObject({ name: z.string() })).optional(),
  toolsRemoved: z.array(z.looseObject({ name: z.string() })).optional(),
  timestamp: ms,
});

export const messageSchema = z.discriminatedUnion("role", [
  systemMessageSchema,
  userMessageSchema,
  assistantMessageSchema,
  toolResultMessageSchema,
  bashExecutionMessageSchema,
  customMessageSchema,
  branchSummaryMessageSchema,
  compactionSummaryMessageSchema,
]);

export const headerSchema = z.looseObject({
  type: z.literal("session"),
  version: z.number().optional(),
  id: z.string().min(1),
  timestamp: z.string(),
  cwd: z.string(),
  parentSession: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const base = { id: z.string().min(1), parentId: z.string().nullable(), timestamp: z.string() };

export const entrySchemas = {
  message: z.looseObject({ ...base, type: z.literal("message"), message: messageSchema }),
  model_change: z.looseObject({ ...base, type: z.literal("model_change"), provider: z.string(), modelId: z.string() }),
  thinking_level_change: z.looseObject({
    ...base,
    type: z.literal("thinking_level_change"),
    thinkingLevel: z.enum(["off", "minimal", "low", "medium", "high", "xhigh"]),
  }),
  compaction: z.looseObject({
    ...base,
    type: z.literal("compaction"),
    summary: z.string(),
    firstKeptEntryId: z.string().optional(),
    tokensBefore: z.number(),
    fromHook: z.boolean().optional(),
    retainedTail: z.array(messageSchema).optional(),
    systemMessage: systemMessageSchema.optional(),
  }),
  branch_summary: z.looseObject({ ...base, type: z.literal("branch_summary"), fromId: z.string(), summary: z.string(), fromHook: z.boolean().optional() }),
  custom: z.looseObject({ ...base, type: z.literal("custom"), customType: z.string() }),
  custom_message: z.looseObject({
    ...base,
    type: z.literal("custom_message"),
    customType: z.string(),
    content: z.union([z.string(), z.array(textOrImage)]),
    display: z.boolean(),
  }),
  label: z.looseObject({ ...base, type: z.literal("label"), targetId: z.string(), label: z.string().optional() }),
  session_info: z.looseObject({ ...base, type: z.literal("session_info"), name: z.string() }),
  leaf: z.looseObject({ ...base, type: z.literal("leaf"), targetId: z.string().nullable() }),
  active_tools_change: z.looseObject({ ...base, type: z.literal("active_tools_change"), activeToolNames: z.array(z.string()) }),
  // pi-coding-agent ≥ 0.86 / ≥ 0.87
  usage: z.looseObject({
    ...base,
    type: z.literal("usage"),
    kind: z.string(),
    provider: z.string(),
    model: z.string(),
    usage: usageSchema,
    note: z.string().optional(),
  }),
  context_edit: z.looseObject({
    ...base,
    type: z.literal("context_edit"),
    targetId: z.string(),
    replacement: z.looseObject({ content: z.union([z.string(), z.array(z.unknown())]) }).nullable(),
  }),
} as const;

export type KnownEntryType = keyof typeof entrySchemas;

export function isKnownEntryType(type: unknown): type is KnownEntryType {
  return typeof type === "string" && Object.hasOwn(entrySchemas, type);
}

/** Where an entry differs from what pi writes, as short readable notes; [] when it conforms. Unknown types are not judged. */
export function schemaIssues(entry: unknown): string[] {
  const type = (entry as { type?: unknown } | null)?.type;
  if (!isKnownEntryType(type)) return [];
  const result = entrySchemas[type].safeParse(entry);
  if (result.success) return [];
  return result.error.issues.slice(0, 3).map((issue) => `${issue.path.length ? issue.path.join(".") : "entry"}: ${issue.message}`);
}

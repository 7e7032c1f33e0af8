// A session that holds a key of a built-in shape and a home directory in every place a string can sit in
// pi's format (planted-secrets.test.ts shares it and looks for them), each place named for the test's report.

/** a real 1×1 PNG, as pi stores a pasted screenshot */
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

// keys of built-in shapes, assembled so that no key-shaped literal sits in the source
const FILL = "A1b2C3d4E5f6G7h8J9k0";
function tokenFor(i: number): string {
  const n = String(i).padStart(4, "0");
  const shapes = [
    `ghp_${n}${FILL}${FILL}`.slice(0, 40),
    `sk-ant-api03-${n}${FILL}${FILL}`,
    `AKIA${n}QWERTYUIOP23`,
    `xoxb-${n}-${FILL}-${FILL}`,
    `AIza${n}${FILL}${FILL}`.slice(0, 39),
    `sk_live_${n}${FILL}`,
  ];
  return shapes[i % shapes.length]!;
}

/** every spelling of a home directory a session holds (the Windows ones as the string's value, not as JSON) */
const HOMES: ((user: string) => string)[] = [
  (u) => `/home/${u}/proj`,
  (u) => `/Users/${u}/proj`,
  (u) => `C:\\Users\\${u}\\proj`,
  (u) => `C:/Users/${u}/proj`,
  (u) => `C:\\\\Users\\\\${u}\\\\proj`, // a path in JSON a tool printed
  (u) => `/root/.pi/agent/sessions/--home-${u}-proj--/s.jsonl`,
  (u) => `/mnt/c/Users/${u}/proj`,
];

export interface Planted {
  where: string;
  token: string;
  user: string;
  /** the token and the home path in one string */
  text: string;
}

function garden() {
  const planted: Planted[] = [];
  const plant = (where: string): Planted => {
    const i = planted.length;
    const user = `zq${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}usr`;
    const token = tokenFor(i);
    const p = { where, token, user, text: `${token} at ${HOMES[i % HOMES.length]!(user)}` };
    planted.push(p);
    return p;
  };
  /** one string: a value, or a key */
  const at = (where: string) => plant(where).text;
  return { planted, plant, at };
}

const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/**
 * A session's JSONL text with a secret in every place, each named, ids e1, e2, … in one chain; `plant` makes
 * one more secret for a place outside the text (the file's name).
 */
export function plantedSession(): { text: string; planted: Planted[]; plant: (where: string) => Planted } {
  const { planted, plant, at } = garden();
  const parent = plant("header.parentSession (a pi session folder)");
  const header = {
    type: "session",
    version: 3,
    id: "019c0000-0000-7000-8000-00000000beef",
    timestamp: t(0),
    cwd: at("header.cwd"),
    parentSession: `/home/${parent.user}/.pi/agent/sessions/--home-${parent.user}-proj--/${parent.token}.jsonl`,
    metadata: {
      [at("header.metadata{key}")]: at("header.metadata[key]"),
      nested: { id: at("header.metadata.nested.id"), type: at("header.metadata.nested.type") },
    },
  };
  const bodies: Record<string, unknown>[] = [
    { type: "model_change", provider: "anthropic", modelId: at("model_change.modelId") },
    { type: "thinking_level_change", thinkingLevel: "high", [at("thinking_level_change{key}")]: at("thinking_level_change[key]") },
    { type: "message", message: { role: "user", content: at("user.content"), timestamp: 1, [at("user message{key}")]: at("user message[key]") } },
    {
      type: "message",
      message: {
        role: "user",
        content: [
          { type: "text", text: at("user.content[0].text") },
          { type: "image", data: PNG, mimeType: "image/png" },
        ],
        timestamp: 2,
      },
    },
    {
      type: "message",
      message: {
        role: "assistant",
        content: [
          { type: "text", text: at("assistant text"), textSignature: at("assistant textSignature"), [at("assistant text block{key}")]: 1 },
          { type: "thinking", thinking: at("assistant thinking"), thinkingSignature: at("assistant thinkingSignature") },
          {
            type: "toolCall",
            id: "call_1",
            name: "bash",
            arguments: {
              command: at("toolCall.arguments.command"),
              id: at("toolCall.arguments.id"),
              type: at("toolCall.arguments.type"),
              [at("toolCall.arguments{key}")]: { nested: [{ [at("toolCall.arguments…[0]{key}")]: at("toolCall.arguments…[0][key]") }] },
            },
          },
        ],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage,
        stopReason: "toolUse",
        errorMessage: at("assistant errorMessage"),
        timestamp: 3,
      },
    },
    {
      type: "message",
      message: {
        role: "toolResult",
        toolCallId: "call_1",
        toolName: "bash",
        content: [{ type: "text", text: at("toolResult.content[0].text") }],
        details: {
          id: at("toolResult.details.id"),
          type: at("toolResult.details.type"),
          [at("toolResult.details{key}")]: { deeper: { [at("toolResult.details…deeper{key}")]: [at("toolResult.details…deeper[key][0]")] } },
        },
        isError: false,
        timestamp: 4,
      },
    },
    {
      type: "message",
      message: {
        role: "bashExecution",
        command: at("bashExecution.command"),
        output: at("bashExecution.output"),
        exitCode: 0,
        cancelled: false,
        truncated: true,
        fullOutputPath: at("bashExecution.fullOutputPath"),
        timestamp: 5,
      },
    },
    {
      type: "message",
      message: {
        role: "custom",
        customType: "note",
        content: at("custom message content"),
        display: true,
        details: { [at("custom message details{key}")]: 1 },
        timestamp: 6,
      },
    },
    { type: "message", message: { role: "branchSummary", summary: at("branchSummary message summary"), fromId: "e3", timestamp: 7 } },
    { type: "message", message: { role: "compactionSummary", summary: at("compactionSummary message summary"), tokensBefore: 10, timestamp: 8 } },
    {
      type: "compaction",
      summary: at("compaction.summary"),
      firstKeptEntryId: "e5",
      tokensBefore: 100,
      details: {
        readFiles: [at("compaction.details.readFiles[0]")],
        modifiedFiles: [at("compaction.details.modifiedFiles[0]")],
        [at("compaction.details{key}")]: true,
      },
      retainedTail: [{ role: "user", content: [{ type: "text", text: at("compaction.retainedTail[0] text") }], timestamp: 9 }],
    },
    {
      type: "branch_summary",
      fromId: "e4",
      summary: at("branch_summary.summary"),
      details: { [at("branch_summary.details{key}")]: at("branch_summary.details[key]") },
    },
    {
      type: "custom",
      customType: "plan",
      data: { id: at("custom.data.id"), type: at("custom.data.type"), [at("custom.data{key}")]: { [at("custom.data…{key}")]: at("custom.data…[key]") } },
    },
    {
      type: "custom_message",
      customType: "note",
      content: [{ type: "text", text: at("custom_message.content[0].text") }],
      display: true,
      details: { type: at("custom_message.details.type") },
    },
    { type: "label", targetId: "e3", label: at("label.label") },
    { type: "session_info", name: at("session_info.name") },
    { type: "active_tools_change", activeToolNames: ["read", at("active_tools_change.activeToolNames[1]")] },
    { type: "leaf", targetId: "e9", [at("leaf{key}")]: at("leaf[key]") },
  ];
  const lines = [JSON.stringify(header)];
  bodies.forEach((body, i) => lines.push(JSON.stringify({ id: `e${i + 1}`, parentId: i ? `e${i}` : null, timestamp: t(i + 1), ...body })));
  const n = bodies.length;
  // JSON.parse keeps the last of two equal keys: the first, which no parsed value shows, holds the secret
  const [first, second] = [plant("duplicate key's first value"), plant("duplicate root key's first value")];
  lines.push(
    `{"type":"custom","id":"e${n + 1}","parentId":"e${n}","timestamp":"${t(n + 1)}","customType":${JSON.stringify(second.text)},"customType":"plan","data":{"note":${JSON.stringify(first.text)},"note":"clean"}}`,
  );
  lines.push(`{"type":"message","id":"broken","note":${JSON.stringify(at("a line that is not JSON"))}`);
  return { text: `${lines.join("\n")}\n`, planted, plant };
}

/**
 * Test support: session texts at the sizes the viewer must survive (a 100k-deep
 * chain, 10k children of one entry, one 50 MB line), written the way pi writes them.
 */

const EPOCH = Date.parse("2026-01-05T09:00:00.000Z");
const at = (i: number) => new Date(EPOCH + i * 1000).toISOString();

export function headerLine(): string {
  return JSON.stringify({ type: "session", version: 3, id: "big-session", timestamp: at(0), cwd: "/tmp/big" });
}

function message(id: string, parentId: string | null, i: number, text: string): string {
  const role = i % 2 === 0 ? "user" : "assistant";
  const body =
    role === "user"
      ? { role, content: text, timestamp: EPOCH + i * 1000 }
      : {
          role,
          content: [{ type: "text", text }],
          provider: "anthropic",
          model: "claude-test",
          usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
          stopReason: "stop",
          timestamp: EPOCH + i * 1000,
        };
  return JSON.stringify({ type: "message", id, parentId, timestamp: at(i + 1), message: body });
}

/** `depth` messages, each the child of the one before; ids `e0`… */
export function deepChain(depth: number): string {
  const lines = [headerLine()];
  for (let i = 0; i < depth; i++) lines.push(message(`e${i}`, i === 0 ? null : `e${i - 1}`, i, `step ${i}`));
  return lines.join("\n") + "\n";
}

/** One root message with `width` children; ids `root`, `c0`… */
export function wideTree(width: number): string {
  const lines = [headerLine(), message("root", null, 0, "the question")];
  for (let i = 0; i < width; i++) lines.push(message(`c${i}`, "root", 2 * i + 1, `answer ${i}`));
  return lines.join("\n") + "\n";
}

/** A user message whose text is one line of `bytes` characters, and a reply to it. */
export function longLine(bytes: number): string {
  const text = "x".repeat(bytes);
  return [headerLine(), message("long", null, 0, text), message("reply", "long", 1, "ok")].join("\n") + "\n";
}

/**
 * The reading measures of the browser bench (issue 21): selecting an entry whose bash output is 5 MB of coloured
 * terminal text, and an assistant message with 200 fenced code blocks, in a small session uploaded to the viewer.
 * Each: click on the entry's card → the first frame showing it in the inspector (the output's first lines; all
 * 200 blocks, plain until highlighted), the longest main-thread task from the click for 2 s, and (info) the
 * frame where every block is highlighted.
 */
import { writeFileSync } from "node:fs";
import type { Browser } from "@playwright/test";

export interface ReadingTiming {
  bashOutputBytes: number;
  bashMs: number;
  bashLongestTaskMs: number;
  codeBlocks: number;
  codeMs: number;
  codeLongestTaskMs: number;
  codeHighlightedMs: number;
}

const OUTPUT_BYTES = 5 * 1024 * 1024;
const CODE_BLOCKS = 200;

const SAMPLES: [string, string][] = [
  [
    "ts",
    'import { Pool } from "pg";\n\nexport function createPool(url: string): Pool {\n  if (!url) throw new Error("a url is required");\n  return new Pool({ connectionString: url, max: 10 });\n}',
  ],
  ["python", "def parse(lines):\n    out = []\n    for line in lines:\n        if line.strip():\n            out.append(line.split(':', 1))\n    return out"],
  ["bash", 'set -euo pipefail\nfor f in src/*.ts; do\n  echo "checking $f"\n  npx tsc --noEmit "$f" || exit 1\ndone'],
  ["json", '{\n  "name": "pool",\n  "version": "1.2.3",\n  "scripts": { "test": "vitest run" },\n  "engines": { "node": ">=20" }\n}'],
  ["rust", 'fn main() {\n    let xs: Vec<u32> = (1..=10).collect();\n    let total: u32 = xs.iter().sum();\n    println!("{}", total);\n}'],
];

/** Writes the session: a bash call whose result is 5 MB of coloured output, then a reply with 200 code blocks. */
export function writeReadingSession(file: string): { bashResultId: string; codeId: string; bytes: number } {
  const t = (s: number) => new Date(Date.UTC(2026, 1, 1, 12, 0, s)).toISOString();
  const usage = { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 20, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const lines: string[] = [];
  let out = "";
  for (let n = 0; out.length < OUTPUT_BYTES; n++)
    out +=
      n % 50 === 49
        ? `\x1b[33mwarning\x1b[0m: module-${n} is large (${n * 7} kB)\n`
        : `  \x1b[32m✓\x1b[0m compiled \x1b[1mmodule-${n}\x1b[0m in ${n % 97} ms\n`;
  const blocks = Array.from({ length: CODE_BLOCKS }, (_, i) => {
    const [lang, code] = SAMPLES[i % SAMPLES.length]!;
    return `Step ${i + 1}:\n\n\`\`\`${lang}\n${code}\n\`\`\``;
  }).join("\n\n");
  const entries = [
    { type: "session", version: 3, id: "0198f000-0000-7000-8000-00000000read", timestamp: t(0), cwd: "/home/dev/projects/reading" },
    { type: "message", id: "r-user", parentId: null, timestamp: t(1), message: { role: "user", content: "Build it and show me the steps.", timestamp: 1 } },
    {
      type: "message",
      id: "r-call",
      parentId: "r-user",
      timestamp: t(2),
      message: {
        role: "assistant",
        content: [{ type: "toolCall", id: "toolu_build", name: "bash", arguments: { command: "npm run build -- --verbose" } }],
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage,
        stopReason: "toolUse",
        timestamp: 2,
      },
    },
    {
      type: "message",
      id: "r-output",
      parentId: "r-call",
      timestamp: t(3),
      message: { role: "toolResult", toolCallId: "toolu_build", toolName: "bash", content: [{ type: "text", text: out }], isError: false, timestamp: 3 },
    },
    {
      type: "message",
      id: "r-code",
      parentId: "r-output",
      timestamp: t(4),
      message: {
        role: "assistant",
        content: [{ type: "text", text: blocks }],
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage,
        stopReason: "stop",
        timestamp: 4,
      },
    },
  ];
  for (const entry of entries) lines.push(JSON.stringify(entry));
  const text = `${lines.join("\n")}\n`;
  writeFileSync(file, text);
  return { bashResultId: "r-output", codeId: "r-code", bytes: out.length };
}

/** In the page: from the next click on `cardSelector` to the first frame where `ready()` holds, and the longest task meanwhile. */
function timeSelection(args: {
  card: string;
  ready: string;
  count: number;
  highlighted: boolean;
}): Promise<{ ms: number; longestTaskMs: number; highlightedMs: number }> {
  return new Promise((done) => {
    const tasks: [number, number][] = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) tasks.push([e.startTime, e.startTime + e.duration]);
    }).observe({ type: "longtask" });
    const card = document.querySelector(args.card)!;
    card.addEventListener(
      "click",
      () => {
        const t0 = performance.now();
        let shown = -1;
        const tick = () => {
          const found = document.querySelectorAll(args.ready);
          if (shown < 0 && found.length >= args.count) shown = performance.now() - t0;
          const lit = !args.highlighted || (found.length >= args.count && [...found].every((el) => el.querySelector("[class*='hljs-']")));
          if (shown >= 0 && lit) {
            const highlightedMs = performance.now() - t0;
            // tasks that run within 2 s of the click, the click's own included: it starts when the input is
            // dispatched, before this listener notes t0 (a long one still running is reported when it ends)
            setTimeout(() => {
              const longest = Math.max(0, ...tasks.filter(([start, end]) => end > t0 && start < t0 + 2000).map(([start, end]) => end - start));
              done({ ms: shown, longestTaskMs: longest, highlightedMs });
            }, 2000);
          } else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      },
      { capture: true, once: true },
    );
  });
}

export async function measureReading(
  browser: Browser,
  url: string,
  file: string,
  ids: { bashResultId: string; codeId: string; bytes: number },
): Promise<ReadingTiming> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript("window.__name = (f) => f;");
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  try {
    await page.goto(`${url}/view`);
    await page.locator('[data-load-phase="nothing"]').waitFor();
    await page.getByTestId("file-input").setInputFiles(file);
    await page.locator('[data-load-phase="ready"]').waitFor();
    await page.locator(`.react-flow__node[data-id="${ids.codeId}"]`).waitFor();
    await page.waitForTimeout(1000);

    const card = (id: string) => `.react-flow__node[data-id="${id}"]`;
    const bash = page.evaluate(timeSelection, {
      card: card(ids.bashResultId),
      ready: '#inspector [data-tool="bash"] [aria-label="output"]',
      count: 1,
      highlighted: false,
    });
    await page.locator(card(ids.bashResultId)).click();
    const bashTiming = await bash;

    const code = page.evaluate(timeSelection, { card: card(ids.codeId), ready: "#inspector [data-language]", count: CODE_BLOCKS, highlighted: true });
    await page.locator(card(ids.codeId)).click();
    const codeTiming = await code;
    return {
      bashOutputBytes: ids.bytes,
      bashMs: bashTiming.ms,
      bashLongestTaskMs: bashTiming.longestTaskMs,
      codeBlocks: CODE_BLOCKS,
      codeMs: codeTiming.ms,
      codeLongestTaskMs: codeTiming.longestTaskMs,
      codeHighlightedMs: codeTiming.highlightedMs,
    };
  } finally {
    await context.close();
  }
}

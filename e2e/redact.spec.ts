// "Redact secrets" beside the export buttons: the fork, the transcript and the HTML export come out masked,
// the fork still reads as the same session, and the page says how many secrets it masked.
import { readFileSync } from "node:fs";
import { expect, test, type Download, type Page } from "@playwright/test";
import { Session } from "../lib/session";

test.describe.configure({ timeout: 120_000 });
const SLOW = { timeout: 60_000 };

const GH = "ghp_" + "A1b2C3d4E5".repeat(4).slice(0, 36);
const AWS = "AKIA" + "QWERTYUIOP234567";
const T = (s: number) => `2026-01-21T10:00:0${s}.000Z`;
const SESSION = [
  { type: "session", version: 3, id: "019bd0f9-f200-7ae8-82c3-000000005ec7", timestamp: T(0), cwd: "/home/dev/app" },
  { type: "message", id: "u1", parentId: null, timestamp: T(1), message: { role: "user", content: `push with ${GH} and ${AWS}`, timestamp: 1 } },
  {
    type: "message",
    id: "a1",
    parentId: "u1",
    timestamp: T(2),
    message: {
      role: "assistant",
      content: [{ type: "text", text: "Using postgres://app:hunter2hunter2@db/app now." }],
      provider: "anthropic",
      model: "m",
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "stop",
      timestamp: 2,
    },
  },
]
  .map((l) => JSON.stringify(l) + "\n")
  .join("");

async function open(page: Page) {
  await page.goto("/view");
  await page.getByTestId("file-input").setInputFiles({ name: "secrets.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(SESSION) });
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
  await expect(page.locator("#inspector")).toContainText("a1", SLOW);
}

async function exported(page: Page, button: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#inspector").getByRole("button", { name: button }).click()]);
  return readFileSync((await (download as Download).path())!, "utf8");
}

test("without the toggle, exports are verbatim and nothing is said about secrets", async ({ page }) => {
  await open(page);
  expect(await exported(page, "Export fork")).toContain(GH);
  await expect(page.getByTestId("redaction-note")).toHaveCount(0);
});

test("with the toggle, the fork, transcript and HTML are masked and the count is shown", async ({ page }) => {
  await open(page);
  await page.getByTestId("redact-toggle").check();
  const fork = await exported(page, "Export fork");
  await expect(page.getByTestId("redaction-note")).toHaveText("Masked 3 secrets (1 aws-access-key-id, 1 github-token, 1 url-password)");
  expect(fork).not.toContain(GH);
  expect(fork).not.toContain(AWS);
  expect(fork).not.toContain("hunter2");
  expect(fork).toContain("[REDACTED:github-token]");
  const copy = Session.fromText(fork);
  expect(copy.branch("a1").map((e) => e.id)).toEqual(["u1", "a1"]);

  const markdown = await exported(page, "Export transcript");
  expect(markdown).toContain("[REDACTED:aws-access-key-id]");
  expect(markdown).not.toContain(GH);
  const html = await exported(page, "Export HTML");
  expect(html).toContain("[REDACTED:url-password]");
  expect(html).not.toContain("hunter2");
  await expect(page.getByTestId("redaction-note")).toContainText("Masked 3 secrets");

  await page.locator("#inspector").screenshot({ path: "/tmp/shots-harden/redact-light.png" });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await page.locator("#inspector").screenshot({ path: "/tmp/shots-harden/redact-dark.png" });
});

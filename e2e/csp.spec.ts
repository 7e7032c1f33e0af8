// The Content-Security-Policy (proxy.ts) and the other security headers, and that the app runs under them:
// no violations on the library and the viewer, the parse worker loads.
import { expect, test, type Page } from "@playwright/test";
import { viewUrl } from "./fixtures/session-files";

test.describe.configure({ timeout: 120_000 });
const SLOW = { timeout: 60_000 };

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map((parts) => [parts[0]!, parts.slice(1)]),
  );
}

async function watchViolations(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`),
    );
  });
  return problems;
}

const violations = (page: Page) => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);

for (const [name, url, status] of [
  ["library", "/", 200],
  ["viewer", viewUrl("ca-branching-a"), 200],
  ["not found", "/no/such/page", 404],
] as const) {
  test(`${name}: a nonce CSP without unsafe-inline scripts, and the security headers`, async ({ request }) => {
    const first = await request.get(url);
    const second = await request.get(url);
    expect(first.status()).toBe(status);
    const csp = first.headers()["content-security-policy"]!;
    expect(csp).toBeTruthy();
    const d = directives(csp);
    const script = d.get("script-src")!;
    expect(script).not.toContain("'unsafe-inline'");
    expect(script).not.toContain("'unsafe-eval'");
    expect(script).toContain("'strict-dynamic'");
    const nonce = script.find((s) => s.startsWith("'nonce-"))!;
    expect(nonce).toMatch(/^'nonce-[A-Za-z0-9+/=]{16,}'$/);
    // a fresh nonce per request, and it is the one on the page's scripts
    expect(directives(second.headers()["content-security-policy"]!).get("script-src")).not.toContain(nonce);
    expect(await first.text()).toContain(`nonce="${nonce.slice(7, -1)}"`);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("base-uri")).toEqual(["'none'"]);
    expect(first.headers()["x-content-type-options"]).toBe("nosniff");
    expect(first.headers()["referrer-policy"]).toBe("no-referrer");
    expect(first.headers()["x-frame-options"]).toBe("DENY");
  });
}

test("the library runs under the policy without violations", async ({ page }) => {
  const problems = await watchViolations(page);
  await page.goto("/");
  await expect(page.getByTestId("session-row").first()).toBeVisible(SLOW);
  await page.getByTestId("filter").fill("a");
  expect([...problems, ...(await violations(page))]).toEqual([]);
});

test("the viewer runs under the policy: the worker parses, the graph and inspector draw, no violations", async ({ page }) => {
  const problems = await watchViolations(page);
  await page.goto(viewUrl("ca-branching-a"));
  await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", SLOW);
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  for (const tab of ["Path", "Context", "Entry"]) await page.locator("#inspector").getByRole("tab", { name: tab, exact: true }).click();
  expect([...problems, ...(await violations(page))]).toEqual([]);
});

test("the not-found page runs under the policy and leads back to the library", async ({ page }) => {
  const problems = await watchViolations(page);
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "There is no page at this address" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("not-found.png") });
  // Next's client ran (window.next is set when its scripts hydrate the page): they carried the nonce
  await expect.poll(() => page.evaluate(() => "next" in window)).toBe(true);
  await page.getByRole("link", { name: "Back to the library" }).click();
  await expect(page.getByTestId("session-row").first()).toBeVisible(SLOW);
  // the 404 response itself is the one console error a browser reports for it
  expect([...problems.filter((p) => !/status of 404/.test(p)), ...(await violations(page))]).toEqual([]);
});

test("an inline script injected into the page is blocked by the policy", async ({ page }) => {
  await watchViolations(page);
  await page.goto("/");
  await expect(page.getByTestId("session-row").first()).toBeVisible(SLOW);
  const ran = await page.evaluate(async () => {
    const s = document.createElement("div");
    s.innerHTML = '<img src="data:," onerror="window.__injected = 1">';
    document.body.appendChild(s);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return (window as unknown as { __injected?: number }).__injected;
  });
  expect(ran).toBeUndefined();
  await expect.poll(() => violations(page)).toContainEqual(expect.stringMatching(/^script-src/));
});

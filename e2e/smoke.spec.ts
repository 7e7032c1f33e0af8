// Smoke test: the app starts and the home page renders.
import { expect, test } from "@playwright/test";

test("home page shows the app name", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "pi session viewer" })).toBeVisible();
  await page.screenshot({ path: "test-results/home.png" });
});

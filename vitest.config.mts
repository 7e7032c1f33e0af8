import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["lib/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000, // the differential tests against pi are heavy
    hookTimeout: 120_000,
    pool: "forks", // 2 cores: at most two workers
    maxWorkers: 2,
  },
});

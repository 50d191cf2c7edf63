import { defineConfig } from "vitest/config";
import path from "node:path";

// Unit tests sit beside their code (lib/**, and the console's pure helpers under components/**); black-box API
// tests that start the real server live in e2e/api.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "components/**/*.test.ts", "e2e/api/**/*.test.ts", "bench/**/*.test.ts"],
    exclude: ["node_modules/**", "e2e/console/**", ".next/**"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Integration files each start their own server; two cores: run two files at a time.
    maxWorkers: 2,
  },
});

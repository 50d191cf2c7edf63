// Console end-to-end tests: Debian Chromium against the real production server (npm run build first).
// Run with `npx playwright test -c e2e/playwright.config.ts`.
import { defineConfig } from "@playwright/test";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3931);
export const E2E_ADMIN_TOKEN = process.env.E2E_ADMIN_TOKEN ?? "console-e2e-admin-token";
/** start-server.sh writes the DATA_DIR it created here, so tests can find admin.kubeconfig for kubectl. */
export const E2E_DATA_DIR_FILE = process.env.E2E_DATA_DIR_FILE ?? `/tmp/cc-console-e2e-${E2E_PORT}.datadir`;

export default defineConfig({
  testDir: "./console",
  outputDir: "../test-results/console",
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    baseURL: `https://127.0.0.1:${E2E_PORT}`,
    ignoreHTTPSErrors: true,
    browserName: "chromium",
    headless: true,
    viewport: { width: 1440, height: 900 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: {
    command: "bash e2e/console/start-server.sh",
    cwd: "..",
    url: `https://127.0.0.1:${E2E_PORT}/readyz`,
    ignoreHTTPSErrors: true,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      E2E_PORT: String(E2E_PORT),
      E2E_ADMIN_TOKEN,
      E2E_DATA_DIR_FILE,
    },
  },
});

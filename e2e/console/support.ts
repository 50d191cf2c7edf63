// Helpers shared by the console specs: sign-in, kubectl against the server Playwright started, the Monaco
// model behind an editor, and screenshots saved as test artifacts.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN, E2E_DATA_DIR_FILE } from "../playwright.config";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SCREENSHOT_DIR = path.join(repoRoot, "test-results", "screenshots");

export const ADMIN_TOKEN = E2E_ADMIN_TOKEN;
/** The token-file user start-server.sh writes into TOKEN_AUTH_FILE (same defaults, same env overrides). */
export const USER_TOKEN = process.env.E2E_USER_TOKEN ?? "console-e2e-team-a-token";
export const USER_NAME = process.env.E2E_USER_NAME ?? "team-a-dev";

export function dataDir(): string {
  return readFileSync(E2E_DATA_DIR_FILE, "utf8").trim();
}

/** Runs kubectl with the server's admin kubeconfig; rejects with stderr on a non-zero exit. */
export function kubectl(args: string[], input?: string): Promise<string> {
  const dir = dataDir();
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.env.KUBECTL ?? "/usr/bin/kubectl",
      [`--kubeconfig=${path.join(dir, "admin.kubeconfig")}`, `--cache-dir=${path.join(dir, "kube-cache")}`, ...args],
      { timeout: 30_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`kubectl ${args.join(" ")}: ${stderr || error.message}`)) : resolve(stdout)),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Creates objects as the admin, leaving any that already exist (specs share namespaces across tests). */
export async function ensureObjects(...objects: object[]): Promise<void> {
  for (const obj of objects) {
    await kubectl(["create", "--validate=false", "-f", "-"], JSON.stringify(obj)).catch((e: Error) => {
      if (!/AlreadyExists|already exists/.test(e.message)) throw e;
    });
  }
}

/** Namespaces must exist before anything is created in them (NamespaceLifecycle admission, as in kube). */
export function ensureNamespaces(...names: string[]): Promise<void> {
  return ensureObjects(...names.map((name) => ({ apiVersion: "v1", kind: "Namespace", metadata: { name } })));
}

export async function signIn(page: Page, next = "/", token = ADMIN_TOKEN): Promise<void> {
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel("Bearer token").fill(token);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

async function modelUri(page: Page): Promise<string> {
  const editor = page.getByTestId("yaml-editor");
  await expect(editor.locator(".monaco-editor")).toBeVisible();
  return (await editor.getAttribute("data-model-uri"))!;
}

/** The text of the YAML editor on the page (read from its Monaco model; no typing involved). */
export async function editorText(page: Page): Promise<string> {
  const uri = await modelUri(page);
  return page.evaluate((u) => window.__clusterCoreMonaco!.editor.getModel(window.__clusterCoreMonaco!.Uri.parse(u))!.getValue(), uri);
}

/** Replaces the editor's text as a user edit (undoable, fires the change events the page listens to). */
export async function setEditorText(page: Page, text: string): Promise<void> {
  const uri = await modelUri(page);
  await page.evaluate(
    ([u, value]) => {
      const monaco = window.__clusterCoreMonaco!;
      const model = monaco.editor.getModel(monaco.Uri.parse(u))!;
      model.pushEditOperations([], [{ range: model.getFullModelRange(), text: value }], () => null);
    },
    [uri, text] as const,
  );
}

/** Every uncaught error and console error the page raises from now on (hydration mismatches among them). */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/** A console error the browser logs for a refused or failed request: the page handles those in words. */
const networkLog = /^console: Failed to load resource: /;

/**
 * Playwright's `test` with the page's browser errors collected (`collectErrors`) for every test, failing the
 * test if the page raised an uncaught error (a `pageerror`: thrown and not caught, a promise rejected with
 * nobody to handle it) or logged one to the console (React's hydration errors, say). The browser's own lines
 * for refused requests are not errors of the page. The test can read what was collected as `pageErrors`.
 */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors = collectErrors(page);
      await use(errors);
      expect(errors.filter((e) => !networkLog.test(e)), "errors in the browser console").toEqual([]);
    },
    { auto: true },
  ],
});

export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

export type Theme = "light" | "dark";

/**
 * Puts the page in a theme the way the console's toggle does (the `dark` class on <html>, read by Tailwind's
 * `dark:` variant, and the `cc-theme` event Monaco's theme follows), with the OS preference emulated to match,
 * and waits for the restyle to be painted. Emulating the preference alone changes nothing once a page is
 * loaded: the theme script reads it only before first paint.
 */
export async function setTheme(page: Page, theme: Theme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate((dark) => {
    document.documentElement.classList.toggle("dark", dark);
    window.dispatchEvent(new Event("cc-theme"));
  }, theme === "dark");
  await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

/** The WCAG levels every console view is held to. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * The one axe check of the console specs: WCAG 2.1 A and AA, in the light and the dark theme, failing on every
 * violation whatever axe's impact (minor and moderate ones too). Each violation is named with its view, theme,
 * rule, impact and the first elements concerned. Soft, so one call reports every theme's violations; the test
 * still fails. The page is left in the theme it had.
 */
export async function expectAccessible(page: Page, view: string, themes: readonly Theme[] = ["light", "dark"], include?: string): Promise<void> {
  const initial: Theme = (await page.locator("html").getAttribute("class"))?.split(/\s+/).includes("dark") ? "dark" : "light";
  for (const theme of themes) {
    await setTheme(page, theme);
    const builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
    const results = await (include ? builder.include(include) : builder).analyze();
    const found = results.violations.map(
      (v) => `${view} (${theme}): ${v.id} [${v.impact}] ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}${v.nodes.length > 3 ? ` (+${v.nodes.length - 3} more)` : ""}`,
    );
    expect.soft(found, `axe violations in ${view} (${theme})`).toEqual([]);
  }
  await setTheme(page, initial);
}

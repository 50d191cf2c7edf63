// The header and each page's action buttons at a phone's, a tablet's and a desktop's width (375, 768 and
// 1440 px; issue 22, item 5: clipped or oversized header and buttons). Measured, not eyeballed: every control
// lies inside the screen, shows all of its text (a placeholder too), stays on one line, is not padded far
// beyond its text, and the header is one row.
import { expect, type Page } from "@playwright/test";
import { ensureNamespaces, ensureObjects, signIn, test } from "./support";

const NS = "e2e-fits";
const WIDTHS = [375, 768, 1440];
const PAGES = [
  { name: "overview", path: "/", ready: "kind-counts" },
  { name: "list", path: `/namespaces/${NS}/configmaps`, ready: "resource-table" },
  { name: "object page", path: `/namespaces/${NS}/services/web`, ready: "object-title" },
  { name: "YAML tab", path: `/namespaces/${NS}/configmaps/settings?tab=yaml`, ready: "object-yaml-editor" },
  { name: "create", path: `/create/configmaps?namespace=${NS}`, ready: "create-submit" },
  { name: "namespace page", path: `/namespaces/${NS}`, ready: "kind-counts" },
];
/** One row of header: the tallest control (a 30 px button) and its padding. */
const HEADER_MAX = 56;
/** A control on one line. */
const CONTROL_MAX = 40;
/** Room a control may leave beside its text and icon, beyond its padding. */
const SLACK_MAX = 12;

test.describe.configure({ timeout: 300_000 });
test.beforeAll(async () => {
  await ensureNamespaces(NS);
  await ensureObjects(
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings", namespace: NS }, data: { a: "b" } },
    { apiVersion: "v1", kind: "Service", metadata: { name: "web", namespace: NS }, spec: { selector: { app: "web" }, ports: [{ port: 80 }] } },
  );
});

/** What is wrong with the header and the page's controls, in words (empty when all fit). */
function problems(page: Page): Promise<string[]> {
  return page.evaluate(
    ({ headerMax, controlMax, slackMax }) => {
      const vw = document.documentElement.clientWidth;
      const out: string[] = [];
      const header = document.querySelector("header")!;
      const h = header.getBoundingClientRect().height;
      if (h > headerMax) out.push(`header is ${Math.round(h)} px tall (more than one row)`);
      if (document.scrollingElement!.scrollWidth > vw) out.push(`page is ${document.scrollingElement!.scrollWidth} px wide`);
      const main = document.querySelector("main")!;
      const controls = [
        ...header.querySelectorAll<HTMLElement>("button, select, input, a"),
        ...[...main.querySelectorAll<HTMLElement>("button, select, input, [data-testid=create-link], [data-testid=deleted-link]")].filter(
          (el) => !el.closest('[role=table], .monaco-editor, .monaco-diff-editor, section, [role=dialog], [role=region], [role=alert], [role=status]'),
        ),
      ];
      const canvas = document.createElement("canvas").getContext("2d")!;
      for (const el of controls) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === "hidden") continue;
        const style = getComputedStyle(el);
        const label = `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? (el as HTMLInputElement).placeholder ?? "").trim().slice(0, 30)}"`;
        if (r.left < -0.5 || r.right > vw + 0.5) out.push(`${label} outside the screen (${Math.round(r.left)}..${Math.round(r.right)} of ${vw})`);
        if (r.height > controlMax) out.push(`${label} is ${Math.round(r.height)} px tall`);
        const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + parseFloat(style.borderLeftWidth) + parseFloat(style.borderRightWidth);
        if (el instanceof HTMLInputElement) {
          canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const text = el.value || el.placeholder;
          const need = canvas.measureText(text).width;
          if (need > r.width - padX + 0.5) out.push(`${label}: its text needs ${Math.round(need)} px, has ${Math.round(r.width - padX)}`);
          continue;
        }
        if (el instanceof HTMLSelectElement) continue;
        if (el.scrollWidth > el.clientWidth + 1) out.push(`${label} cut short (${el.scrollWidth} px in ${el.clientWidth})`);
        // The width of what the control shows: its text and icons, not empty boxes kept for later text.
        let left = Infinity;
        let right = -Infinity;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          let rects: DOMRectList | DOMRect[] = [];
          if (node.nodeType === Node.TEXT_NODE && node.textContent!.trim()) {
            const range = document.createRange();
            range.selectNodeContents(node);
            rects = range.getClientRects();
          } else if (node instanceof SVGSVGElement) rects = [node.getBoundingClientRect()];
          for (const rect of rects) {
            if (rect.width === 0) continue;
            left = Math.min(left, rect.left);
            right = Math.max(right, rect.right);
          }
        }
        if (right > left) {
          const slack = r.width - padX - (right - left);
          if (slack > slackMax) out.push(`${label} is ${Math.round(slack)} px wider than its content`);
        }
      }
      return out;
    },
    { headerMax: HEADER_MAX, controlMax: CONTROL_MAX, slackMax: SLACK_MAX },
  );
}

for (const width of WIDTHS) {
  test(`header and page buttons fit at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, "/");
    const found: string[] = [];
    for (const view of PAGES) {
      await page.goto(view.path);
      await expect(page.getByTestId(view.ready).first()).toBeVisible({ timeout: 60_000 });
      // Live lists settle (counts, the pause button's words) before measuring.
      await page.waitForTimeout(1_000);
      for (const p of await problems(page)) found.push(`${view.name}: ${p}`);
    }
    expect(found).toEqual([]);
  });
}

// Custom kinds in the console (issue 25 item 8): a CRD created with kubectl appears in the sidebar without a
// reload, its objects list with the CRD's printer columns (live), one is created from the example generated from
// its schema, its YAML is checked against the served schema (an unknown field marked by the editor; an enum
// violation and a CEL rule failure refused by the server and marked on their lines), it is deleted and found
// among the deleted objects; deleting the CRD takes the kind out of the sidebar, again without a reload.
import { expect, type Page } from "@playwright/test";
import { parse, stringify } from "yaml";
import { editorText, ensureNamespaces, kubectl, setEditorText, shot, signIn, test, uniqueName } from "./support";

const GROUP = "crs.console-e2e.example.com";
const SEGMENT = `gizmos.${GROUP}`;
const NAMESPACE = "e2e-custom-kinds";

const crd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: SEGMENT },
  spec: {
    group: GROUP,
    scope: "Namespaced",
    names: { plural: "gizmos", singular: "gizmo", kind: "Gizmo", shortNames: ["gz"] },
    versions: [
      {
        name: "v1",
        served: true,
        storage: false,
        schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } } },
      },
      {
        name: "v2",
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: "Size", type: "integer", jsonPath: ".spec.size" },
          { name: "Colour", type: "string", jsonPath: ".spec.colour" },
          { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
        ],
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                required: ["size", "colour"],
                "x-kubernetes-validations": [{ rule: "self.replicas <= self.size", message: "replicas must not exceed size", fieldPath: ".replicas" }],
                properties: {
                  size: { type: "integer", minimum: 1, default: 3 },
                  colour: { type: "string", enum: ["red", "green", "blue"] },
                  replicas: { type: "integer", default: 1 },
                },
              },
              status: { type: "object", properties: { ready: { type: "boolean" } } },
            },
          },
        },
      },
    ],
  },
};

function markers(page: Page, owner?: string): Promise<{ line: number; message: string }[]> {
  return page.evaluate(async (o) => {
    const uri = document.querySelector("[data-testid=yaml-editor]")!.getAttribute("data-model-uri")!;
    const monaco = window.__clusterCoreMonaco!;
    return monaco.editor
      .getModelMarkers({ resource: monaco.Uri.parse(uri), ...(o ? { owner: o } : {}) })
      .map((m) => ({ line: m.startLineNumber, message: m.message }));
  }, owner);
}

const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

test.beforeAll(async () => {
  await ensureNamespaces(NAMESPACE);
  await kubectl(["delete", "crd", SEGMENT, "--ignore-not-found", "--wait=true"]);
});

test("a custom kind: sidebar, live list with printer columns, create from its schema, YAML checks, delete, history", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, `/namespaces/${NAMESPACE}`);
  const nav = page.getByTestId(`nav-${SEGMENT}`);
  await expect(page.getByTestId("object-title")).toHaveText(`Namespace ${NAMESPACE}`);
  await expect(nav).toHaveCount(0);

  // The CRD appears in the sidebar, in a section named after its group, and on the namespace's page: no reload.
  await kubectl(["apply", "-f", "-"], JSON.stringify(crd));
  await expect(nav).toBeVisible({ timeout: 15_000 });
  await expect(nav).toHaveText("Gizmos");
  await expect(page.getByRole("navigation", { name: "Kinds" }).getByRole("heading", { name: GROUP })).toBeVisible();
  await expect(page.getByTestId(`count-${SEGMENT}`)).toContainText("0");

  // Objects made by kubectl are listed with the printer columns, and follow changes live.
  const byKubectl = uniqueName("gz");
  await kubectl(["apply", "-f", "-"], JSON.stringify({ apiVersion: `${GROUP}/v2`, kind: "Gizmo", metadata: { name: byKubectl, namespace: NAMESPACE }, spec: { size: 5, colour: "green" } }));
  await expect(page.getByTestId(`count-${SEGMENT}`)).toContainText("1");
  await nav.click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NAMESPACE}/${SEGMENT.replace(/\./g, "\\.")}$`));
  const headers = page.getByRole("columnheader");
  await expect(headers.filter({ hasText: "Size" })).toBeVisible();
  await expect(headers.filter({ hasText: "Colour" })).toBeVisible();
  const row = page.locator(`[data-testid=resource-row][data-key="${NAMESPACE}/${byKubectl}"]`);
  await expect(row.locator('[data-column="Colour"]')).toHaveText("green");
  await expect(row.locator('[data-column="Size"]')).toHaveText("5");
  await kubectl(["patch", `gizmos.v2.${GROUP}`, byKubectl, "-n", NAMESPACE, "--type=merge", "-p", '{"spec":{"colour":"blue","size":8}}']);
  await expect(row.locator('[data-column="Colour"]')).toHaveText("blue");
  await expect(row.locator('[data-column="Size"]')).toHaveText("8");
  await shot(page, "custom-kind-list");

  // Create from the example generated from the schema: defaults, the enum's first value, the preferred version.
  await page.goto(`/create/${SEGMENT}?namespace=${NAMESPACE}`);
  await expect(page.getByRole("heading", { name: `Create Gizmo in ${NAMESPACE}` })).toBeVisible();
  const example = parse(await editorText(page));
  await shot(page, "custom-kind-create");
  expect(example).toEqual({
    apiVersion: `${GROUP}/v2`,
    kind: "Gizmo",
    metadata: { name: "example", namespace: NAMESPACE },
    spec: { size: 3, colour: "red", replicas: 1 },
  });
  const name = uniqueName("gizmo");
  example.metadata.name = name;
  await setEditorText(page, stringify(example));
  await page.getByTestId("create-submit").click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NAMESPACE}/${SEGMENT.replace(/\./g, "\\.")}/${name}`));
  await expect(page.getByTestId("created-notice")).toContainText(`Gizmo ${name} created`);
  await expect(page.getByTestId("object-title")).toHaveText(`Gizmo ${name}`);

  // The YAML tab checks against the served schema: an unknown field is marked by the editor.
  await page.getByTestId("tab-yaml").click();
  const stored = parse(await editorText(page));
  expect(stored.spec).toEqual({ size: 3, colour: "red", replicas: 1 });
  stored.spec.bogus = "x";
  let text = stringify(stored);
  await setEditorText(page, text);
  await expect.poll(async () => (await markers(page)).filter((m) => /bogus/.test(m.message)).map((m) => m.line), { timeout: 15_000 }).toEqual([lineOf(text, "bogus: x")]);

  // The server's 422s land on their lines: an enum violation, then (the schema passing) the CEL rule's fieldPath.
  delete stored.spec.bogus;
  stored.spec.colour = "purple";
  text = stringify(stored);
  await setEditorText(page, text);
  await page.getByTestId("dry-run").click();
  await expect(page.getByTestId("save-error")).toContainText("spec.colour");
  // kube adds a cause without a field (CEL rules not checked): it marks the document, not a line of the spec.
  await expect.poll(async () => (await markers(page, "server")).map((m) => m.line)).toContain(lineOf(text, "colour: purple"));
  expect((await markers(page, "server")).filter((m) => m.line > 1).map((m) => m.line)).toEqual([lineOf(text, "colour: purple")]);

  stored.spec.colour = "green";
  stored.spec.replicas = 10;
  text = stringify(stored);
  await setEditorText(page, text);
  await page.getByTestId("dry-run").click();
  await expect(page.getByTestId("save-error")).toContainText("replicas must not exceed size");
  await expect.poll(async () => (await markers(page, "server")).map((m) => m.line)).toEqual([lineOf(text, "replicas: 10")]);

  // Delete with the dialog; the object is then among the kind's deleted objects.
  await page.goto(`/namespaces/${NAMESPACE}/${SEGMENT}/${name}`);
  await page.getByTestId("delete-object").click();
  await expect(page.getByTestId("delete-list")).toContainText(name);
  await page.getByTestId("confirm-delete").click();
  await expect(page).toHaveURL(new RegExp(`/namespaces/${NAMESPACE}/${SEGMENT.replace(/\./g, "\\.")}$`));
  await expect(page.locator(`[data-testid=resource-row][data-key="${NAMESPACE}/${name}"]`)).toHaveCount(0);
  await page.goto(`/history/deleted/${SEGMENT}?namespace=${NAMESPACE}`);
  await expect(page.getByTestId("deleted-row").filter({ hasText: name })).toBeVisible();

  // Ctrl-K reaches the kind.
  await page.keyboard.press("Control+k");
  await page.keyboard.type("Gizmos");
  await expect(page.getByRole("option", { name: /Gizmos/ }).first()).toBeVisible();
  await page.keyboard.press("Escape");

  // The CRD goes: the kind leaves the sidebar without a reload.
  await page.goto(`/namespaces/${NAMESPACE}`);
  await expect(nav).toBeVisible();
  await kubectl(["delete", "crd", SEGMENT, "--wait=true"]);
  await expect(nav).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId(`count-${SEGMENT}`)).toHaveCount(0);
});

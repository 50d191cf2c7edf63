// A CustomResourceDefinition's page (issue 25, item 8): kubectl applies a realistic two-version CRD (a
// deprecated version, /status and /scale, printer columns, a nested schema with required fields, an enum, a
// default and CEL rules), and the page shows its names, the Established condition, both versions with storage
// and deprecation marked, the stored versions (one no longer served flagged, live) and the schema as a tree
// whose deeper fields open on demand; a second CRD asking for a kind the group already has shows
// NamesAccepted=False as a problem. At a phone's width nothing overflows sideways.
import { expect as baseExpect, type Page } from "@playwright/test";
import { expectAccessible, kubectl, shot, signIn, test } from "./support";

// The machine running these specs is shared: a page's first list can take longer than the default 15 s.
const expect = baseExpect.configure({ timeout: 45_000 });
test.describe.configure({ timeout: 240_000 });

const GROUP = "crd-page.e2e.example.com";
const NAME = `widgets.${GROUP}`;
const CONFLICTING = `gizmos.${GROUP}`;
const HELD = `holds.${GROUP}`;
const LARGE = `fleets.${GROUP}`;

const schema = (withRule: boolean) => ({
  openAPIV3Schema: {
    type: "object",
    properties: {
      spec: {
        type: "object",
        required: ["size"],
        ...(withRule ? { "x-kubernetes-validations": [{ rule: "self.minReplicas <= self.replicas", message: "minReplicas must not exceed replicas" }] } : {}),
        properties: {
          size: { type: "string", enum: ["small", "large"], default: "small", description: "How big each widget is." },
          replicas: { type: "integer", minimum: 0, maximum: 50 },
          minReplicas: { type: "integer", minimum: 0 },
          tls: {
            type: "object",
            properties: {
              certificate: {
                type: "object",
                required: ["secretName"],
                properties: {
                  secretName: {
                    type: "string",
                    description: "The Secret holding the certificate.",
                    "x-kubernetes-validations": [{ rule: "self.startsWith('tls-')", message: "the Secret's name must start with tls-" }],
                  },
                },
              },
            },
          },
          backends: {
            type: "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
            items: { type: "object", required: ["name"], properties: { name: { type: "string" }, port: { type: "integer" } } },
          },
        },
      },
      status: { type: "object", properties: { replicas: { type: "integer" }, selector: { type: "string" } } },
    },
  },
});

/** The CRD as its team ships it: v1beta1 deprecated, v1 the storage version with subresources and columns. */
const widgets = (storage: "v1beta1" | "v1", betaServed = true) => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: NAME },
  spec: {
    group: GROUP,
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", shortNames: ["wdg"], categories: ["shop"] },
    versions: [
      {
        name: "v1beta1",
        served: betaServed,
        storage: storage === "v1beta1",
        deprecated: true,
        deprecationWarning: `${GROUP}/v1beta1 Widget is deprecated; use ${GROUP}/v1`,
        schema: schema(false),
      },
      {
        name: "v1",
        served: true,
        storage: storage === "v1",
        schema: schema(true),
        subresources: { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" } },
        additionalPrinterColumns: [
          { name: "Size", type: "string", jsonPath: ".spec.size" },
          { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
          { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
        ],
        selectableFields: [{ jsonPath: ".spec.size" }],
      },
    ],
  },
});

const apply = (obj: object) => kubectl(["apply", "-f", "-"], JSON.stringify(obj));

test.beforeAll(async () => {
  // A run that stopped half-way may have left them (the held one with its finalizer).
  await kubectl(["patch", "crd", HELD, "--type=merge", "-p", '{"metadata":{"finalizers":null}}']).catch(() => undefined);
  for (const name of [NAME, CONFLICTING, HELD, LARGE]) await kubectl(["delete", "crd", name, "--ignore-not-found", "--wait=true"]);
  // First shipped with v1beta1 as storage, then v1 took over: both are in status.storedVersions.
  await apply(widgets("v1beta1"));
  await kubectl(["wait", "--for=condition=Established", `crd/${NAME}`, "--timeout=60s"]);
  await apply(widgets("v1"));
});

const version = (page: Page, name: string) => page.locator(`[data-testid=crd-version][data-version="${name}"]`);
const field = (page: Page, path: string) => page.locator(`[data-testid=schema-field][data-path="${path}"]`);
/** A field's own CEL rules (not those of the fields below it). */
const ownRules = (page: Page, path: string) => field(page, path).locator(":scope > div [data-testid=schema-rule]");

test("the CRD's page shows its names, conditions, versions and schema", async ({ page }) => {
  await signIn(page, `/customresourcedefinitions/${NAME}`);
  const details = page.getByTestId("crd-details");
  await expect(details).toBeVisible();

  // Names and scope, and the kind's list of custom resources.
  await expect(page.getByTestId("crd-resource")).toHaveText(NAME);
  await expect(page.getByTestId("crd-group")).toHaveText(GROUP);
  await expect(page.getByTestId("crd-kind")).toHaveText("Widget");
  await expect(page.getByTestId("crd-short-names")).toHaveText("wdg");
  await expect(page.getByTestId("crd-categories")).toHaveText("shop");
  await expect(page.getByTestId("crd-scope")).toHaveText("Namespaced");
  await expect(page.getByTestId("crd-resources-link")).toHaveAttribute("href", `/${NAME}`);
  await expect(page.getByTestId("crd-name-conflict")).toHaveCount(0);

  // Conditions: established, names accepted, and nothing in the Problems box.
  const conditions = page.getByTestId("crd-conditions");
  await expect(conditions.locator('[data-testid=condition][data-type=Established]')).toHaveAttribute("data-status", "True");
  await expect(conditions.locator('[data-testid=condition][data-type=NamesAccepted]')).toHaveAttribute("data-status", "True");
  await expect(page.getByTestId("object-problems")).toHaveCount(0);
  // The section covers status: no generic Status panel repeats it.
  await expect(page.getByTestId("status")).toHaveCount(0);

  // Versions: v1 the storage version with its subresources and columns, v1beta1 deprecated with its warning.
  await expect(version(page, "v1")).toHaveAttribute("data-storage", "true");
  await expect(version(page, "v1").getByTestId("crd-storage")).toBeVisible();
  await expect(version(page, "v1").getByTestId("crd-scale")).toContainText(".spec.replicas → .status.replicas, selector .status.selector");
  await expect(version(page, "v1")).toContainText("/status");
  await expect(version(page, "v1").getByTestId("crd-printer-column")).toHaveText([/^Size \.spec\.size string/, /^Replicas \.spec\.replicas integer/, /^Age \.metadata\.creationTimestamp date/]);
  await expect(version(page, "v1").getByTestId("crd-selectable-fields")).toHaveText("field selectors: .spec.size");
  await expect(version(page, "v1beta1")).toHaveAttribute("data-storage", "false");
  await expect(version(page, "v1beta1").getByTestId("crd-deprecated")).toBeVisible();
  await expect(version(page, "v1beta1").getByTestId("crd-deprecation-warning")).toHaveText(`Warning: ${GROUP}/v1beta1 Widget is deprecated; use ${GROUP}/v1`);
  await expect(page.getByTestId("crd-stored-versions")).toContainText("v1beta1, v1");
  await expect(page.getByTestId("stored-not-served")).toHaveCount(0);

  // The schema of the storage version first: two levels open, required and enum/default shown, the spec's CEL rule.
  const tree = page.getByTestId("schema-tree");
  await expect(tree).toHaveAttribute("data-version", "v1");
  await expect(page.getByRole("tab", { name: "v1 (storage)" })).toHaveAttribute("aria-selected", "true");
  await expect(field(page, ".spec.size").getByTestId("schema-required")).toBeVisible();
  await expect(field(page, ".spec.size").getByTestId("schema-enum")).toHaveText('enum: "small", "large"');
  await expect(field(page, ".spec.size").getByTestId("schema-default")).toHaveText('default: "small"');
  await expect(field(page, ".spec.replicas").getByTestId("schema-required")).toHaveCount(0);
  await expect(field(page, ".spec.backends").getByTestId("schema-type").first()).toHaveText("[]object");
  await expect(field(page, ".spec.backends").getByTestId("schema-marker")).toHaveText(["x-kubernetes-list-type: map", "x-kubernetes-list-map-keys: name"]);
  await expect(ownRules(page, ".spec")).toContainText("self.minReplicas <= self.replicas — minReplicas must not exceed replicas");
  // Deeper than two levels starts closed: opening spec.tls.certificate shows secretName and its rule.
  const certificate = field(page, ".spec.tls.certificate");
  await expect(certificate.getByTestId("schema-toggle")).toHaveAttribute("aria-expanded", "false");
  await expect(field(page, ".spec.tls.certificate.secretName")).toHaveCount(0);
  await certificate.getByRole("button", { name: "certificate" }).click();
  await expect(certificate.getByTestId("schema-toggle")).toHaveAttribute("aria-expanded", "true");
  const secretName = field(page, ".spec.tls.certificate.secretName");
  await expect(secretName.getByTestId("schema-required")).toBeVisible();
  await expect(secretName.getByTestId("schema-rule")).toHaveText("rule self.startsWith('tls-') — the Secret's name must start with tls-");
  // Closing a field hides its children again.
  await field(page, ".spec.tls").getByRole("button", { name: "tls", exact: true }).click();
  await expect(certificate).toHaveCount(0);

  // The deprecated version's schema has no rule on spec.
  await page.getByRole("tab", { name: "v1beta1 (deprecated)" }).click();
  await expect(tree).toHaveAttribute("data-version", "v1beta1");
  await expect(ownRules(page, ".spec")).toHaveCount(0);
  // Finding a field opens the way to it.
  await page.getByLabel("Find a field").fill("secretName");
  await expect(page.getByTestId("schema-find-count")).toHaveText("1 matching field");
  await expect(field(page, ".spec.tls.certificate.secretName")).toHaveAttribute("data-match", "true");
  await shot(page, "crd-page");

  await expectAccessible(page, "CRD page");
});

test("a stored version that is no longer served is flagged, live", async ({ page }) => {
  await signIn(page, `/customresourcedefinitions/${NAME}`);
  await expect(version(page, "v1beta1")).toHaveAttribute("data-served", "true");
  await apply(widgets("v1", false));
  await expect(version(page, "v1beta1")).toHaveAttribute("data-served", "false");
  await expect(page.getByTestId("stored-not-served")).toContainText("v1beta1 is in storedVersions but not served");
  await apply(widgets("v1"));
  await expect(page.getByTestId("stored-not-served")).toHaveCount(0);
});

test("a CRD asking for a kind its group already has shows NamesAccepted=False as a problem", async ({ page }) => {
  await apply({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: CONFLICTING },
    spec: {
      group: GROUP,
      scope: "Namespaced",
      // Its own list kind, so the kind is the one conflict (kube reports the last conflict it finds).
      names: { plural: "gizmos", singular: "gizmo", kind: "Widget", listKind: "GizmoList" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }],
    },
  });
  await signIn(page, `/customresourcedefinitions/${CONFLICTING}`);
  const problems = page.getByTestId("object-problems");
  await expect(problems.locator('[data-testid=problem-condition][data-type=NamesAccepted]')).toContainText("NamesAccepted is False: KindConflict");
  await expect(problems.locator('[data-testid=problem-condition][data-type=Established]')).toContainText("Established is False: NotAccepted");
  const conflict = page.getByTestId("crd-name-conflict");
  await expect(conflict).toContainText("Names not accepted: KindConflict");
  await expect(conflict).toContainText('"Widget" is already in use');
  await expect(conflict.getByTestId("crd-name-difference")).toHaveText(["kindWidgetnone"]);
  await expect(page.getByTestId("crd-conditions").locator('[data-testid=condition][data-type=NamesAccepted]')).toHaveAttribute("data-status", "False");
  await expect(page.getByTestId("crd-resources-link")).toHaveCount(0);
});

test("a CRD being deleted says so at the top of its page", async ({ page }) => {
  const held = HELD;
  const finalizer = `${GROUP}/hold`;
  await apply({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: held, finalizers: [finalizer] },
    spec: {
      group: GROUP,
      scope: "Cluster",
      names: { plural: "holds", singular: "hold", kind: "Hold" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }],
    },
  });
  await kubectl(["wait", "--for=condition=Established", `crd/${held}`, "--timeout=60s"]);
  await signIn(page, `/customresourcedefinitions/${held}`);
  await expect(page.getByTestId("crd-scope")).toHaveText("Cluster (objects have no namespace)");
  await expect(page.getByTestId("crd-terminating")).toHaveCount(0);
  await kubectl(["delete", "crd", held, "--wait=false"]);
  // Its (no) custom resources removed, our finalizer still holds it.
  await expect(page.getByTestId("crd-terminating")).toContainText("This CustomResourceDefinition is being deleted.");
  await expect(page.getByTestId("crd-finalizers")).toHaveText(`Waiting for finalizers: ${finalizer}`);
  await expect(page.getByTestId("crd-resources-link")).toHaveCount(0);
  await kubectl(["patch", "crd", held, "--type=json", "-p", JSON.stringify([{ op: "remove", path: "/metadata/finalizers" }])]);
  await expect(page.getByText(`CustomResourceDefinition ${held} does not exist`)).toBeVisible();
});

test("a cert-manager-size schema opens at once: fields deeper than two levels are built only when opened", async ({ page }) => {
  // 25 × 20 × 20 fields below spec (10,000 at the fourth level), each described, about 1 MB of schema.
  const leaf = (i: number) => ({ type: "string", description: `Leaf field ${i}: what it sets, in a sentence or two as real CRDs describe their fields.` });
  const level = (n: number, child: (i: number) => object) => ({
    type: "object",
    description: "A group of settings.",
    properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`field${i}`, child(i)])),
  });
  const spec = level(25, () => level(20, () => level(20, leaf)));
  await kubectl(["create", "-f", "-"], JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: LARGE },
    spec: {
      group: GROUP,
      scope: "Namespaced",
      names: { plural: "fleets", singular: "fleet", kind: "Fleet" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { spec } } } }],
    },
  }));
  await signIn(page, `/customresourcedefinitions/${LARGE}`);
  const tree = page.getByTestId("schema-tree");
  await expect(field(page, ".spec.field24.field19")).toBeVisible();
  // spec, its 25 fields and their 500: the 10,000 below are not on the page.
  await expect(tree.getByTestId("schema-field")).toHaveCount(1 + 25 + 500);
  await field(page, ".spec.field3.field7").getByRole("button", { name: "field7" }).click();
  await expect(field(page, ".spec.field3.field7.field19")).toContainText("Leaf field 19");
  await expect(tree.getByTestId("schema-field")).toHaveCount(1 + 25 + 500 + 20);
  // Finding a leaf anywhere opens the way to each match.
  await page.getByLabel("Find a field").fill(".field24.field19.field19");
  await expect(page.getByTestId("schema-find-count")).toHaveText("1 matching field");
  await expect(field(page, ".spec.field24.field19.field19")).toHaveAttribute("data-match", "true");
});

test("the CRD's page fits a phone's width", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, `/customresourcedefinitions/${NAME}`);
  await expect(page.getByTestId("crd-details")).toBeVisible();
  await field(page, ".spec.tls.certificate").getByRole("button", { name: "certificate" }).click();
  await expect(field(page, ".spec.tls.certificate.secretName").getByTestId("schema-rule")).toBeVisible();
  const overflow = await page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.scrollingElement!.scrollWidth > vw) out.push(`page is ${document.scrollingElement!.scrollWidth} px wide in ${vw}`);
    const overview = document.querySelector<HTMLElement>('[role=region][aria-label^="Overview of"]')!;
    if (overview.scrollWidth > overview.clientWidth + 1) out.push(`overview scrolls sideways (${overview.scrollWidth} px in ${overview.clientWidth})`);
    // Every section of the CRD's own: nothing reaches past the screen's edge (tables may scroll in their own box).
    for (const el of document.querySelectorAll<HTMLElement>("[data-testid=crd-details] *")) {
      if (el.closest("[role=region].overflow-x-auto")) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > vw + 0.5) out.push(`${el.tagName.toLowerCase()}[${el.getAttribute("data-testid") ?? el.className.slice(0, 40)}] ends at ${Math.round(r.right)}`);
    }
    return out.slice(0, 10);
  });
  expect(overflow).toEqual([]);
  await shot(page, "crd-page-phone");
});

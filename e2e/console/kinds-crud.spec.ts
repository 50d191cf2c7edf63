// For every kind: create from the template, see it in the live list, edit its YAML and save, delete it.
import { expect } from "@playwright/test";
import { parse, stringify } from "yaml";
import { kinds } from "../../lib/kinds";
import { editorText, ensureNamespaces, setEditorText, shot, signIn, test, uniqueName } from "./support";

const NAMESPACE = "e2e-crud";

test.beforeAll(() => ensureNamespaces(NAMESPACE));

test.describe("every kind: create, list, edit, delete", () => {
  for (const kind of kinds) {
    test(kind.kind, async ({ page }) => {
      let name = uniqueName(kind.singular.slice(0, 20));
      await signIn(page, `/create/${kind.plural}?namespace=${NAMESPACE}`);
      await expect(page.getByRole("heading", { name: `Create ${kind.kind}${kind.namespaced ? ` in ${NAMESPACE}` : ""}` })).toBeVisible();

      const template = parse(await editorText(page));
      expect(template.kind).toBe(kind.kind);
      template.metadata.name = name;
      // A CustomResourceDefinition is named <plural>.<group>: a plural (and kind) of its own for this run.
      if (kind.kind === "CustomResourceDefinition") {
        const plural = name.replace(/[^a-z0-9]/g, "");
        template.spec.names = { plural, singular: plural, kind: `E2e${plural}` };
        name = template.metadata.name = `${plural}.${template.spec.group}`;
      }
      await setEditorText(page, stringify(template));
      await page.getByTestId("create-submit").click();

      const listPath = kind.namespaced ? `/namespaces/${NAMESPACE}/${kind.plural}` : `/${kind.plural}`;
      // Created: the new object's page says so.
      await expect(page).toHaveURL(new RegExp(`${listPath}/${name}$`));
      await expect(page.getByTestId("created-notice")).toContainText(`${kind.kind} ${name} created`);
      await page.goto(listPath);
      const row = page.locator(`[data-testid=resource-row][data-key="${kind.namespaced ? `${NAMESPACE}/` : ""}${name}"]`);
      await expect(row).toBeVisible();
      if (kind.plural === "pods") await shot(page, "list-pods");

      await row.getByRole("link", { name }).click();
      await expect(page.getByTestId("object-title")).toHaveText(`${kind.kind} ${name}`);
      await page.getByTestId("tab-yaml").click();
      await expect(page).toHaveURL(/\?tab=yaml$/);
      // A Secret's YAML is edited once its values are revealed (secret-values.spec.ts).
      if (kind.kind === "Secret") await page.getByTestId("reveal-secret-yaml").click();

      const stored = parse(await editorText(page));
      stored.metadata.labels = { ...(stored.metadata.labels ?? {}), edited: "by-console" };
      await setEditorText(page, stringify(stored));
      await page.getByTestId("review-save").click();
      await expect(page.getByTestId("yaml-diff")).toBeVisible();
      if (kind.plural === "configmaps") await shot(page, "yaml-diff-before-save");
      await page.getByTestId("confirm-save").click();
      await expect(page.getByTestId("save-notice")).toContainText("Saved");
      expect(parse(await editorText(page)).metadata.labels.edited).toBe("by-console");

      await page.getByTestId("delete-object").click();
      await expect(page.getByTestId("delete-list")).toContainText(name);
      // A namespace takes everything in it along: its name must be typed first (lists.spec.ts).
      if (kind.kind === "Namespace") await page.getByTestId("delete-confirm-text").fill(name);
      await page.getByTestId("confirm-delete").click();
      await expect(page).toHaveURL(new RegExp(`${listPath}$`));
      await expect(row).toHaveCount(0);
    });
  }
});

// The namespace view replays its last hour (issue 14, item 8): a position over the changes (step, slider,
// play) shows the objects the hour touched as they stood then, and what that step changed.
import { expect, type Page } from "@playwright/test";
import { ensureNamespaces, expectAccessible, kubectl, shot, signIn, test, uniqueName } from "./support";

const NS = "e2e-replay";

test.describe.configure({ timeout: 180_000 });
test.beforeAll(() => ensureNamespaces(NS));

const configMap = (name: string, v: string) => JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NS }, data: { v } });

function object(page: Page, name: string) {
  return page.getByTestId("replay-objects").locator(`[data-testid=replay-object][data-name="${name}"]`);
}

test("stepping through the hour shows each object as it stood, the step's change and its diff; new changes never move the position", async ({ page }) => {
  const a = uniqueName("replay-a");
  const b = uniqueName("replay-b");
  await kubectl(["create", "-f", "-"], configMap(a, "one"));
  await kubectl(["create", "-f", "-"], configMap(b, "one"));
  await kubectl(["patch", "configmap", a, "-n", NS, "--type=merge", "-p", JSON.stringify({ data: { v: "two" } })]);
  await kubectl(["delete", "configmap", b, "-n", NS]);

  await signIn(page, `/namespaces/${NS}`);
  const changes = page.getByTestId("namespace-changes");
  await expect(changes.getByTestId("namespace-change").filter({ hasText: b })).toHaveCount(2);
  await changes.getByTestId("replay-toggle").click();
  const position = page.getByTestId("replay-position");

  // An hour ago: neither was created yet.
  await expect(position).toContainText("An hour ago");
  await expect(object(page, a)).toContainText("not created yet");
  await expect(object(page, b)).toContainText("not created yet");

  // Now: a modified, b deleted, b's deletion being the step shown.
  await page.getByTestId("replay-now").click();
  await expect(position).toContainText(`ConfigMap ${b} deleted by admin`);
  await expect(object(page, a)).toContainText("modified");
  await expect(object(page, b)).toContainText("deleted");
  await expect(object(page, b)).toHaveAttribute("data-changed", "true");

  // One step back: before b's deletion, just after a's change, whose diff is shown.
  await page.getByTestId("replay-back").click();
  await expect(position).toContainText(`ConfigMap ${a} modified`);
  await expect(object(page, b)).toContainText("created");
  await expect(object(page, a)).toHaveAttribute("data-changed", "true");
  const diff = page.getByTestId("replay-step-diff").getByTestId("change-diff");
  await expect(diff.locator('tr[data-op="removed"]')).toHaveText([/v: one/]);
  await expect(diff.locator('tr[data-op="added"]')).toHaveText([/v: two/]);

  // Two more steps back: only a exists.
  await page.getByTestId("replay-back").click();
  await page.getByTestId("replay-back").click();
  await expect(position).toContainText(`ConfigMap ${a} created`);
  await expect(object(page, a)).toContainText("created");
  await expect(object(page, b)).toContainText("not created yet");

  // A change made now is listed, and the replay stays where it is.
  await kubectl(["patch", "configmap", a, "-n", NS, "--type=merge", "-p", JSON.stringify({ data: { v: "three" } })]);
  await expect(changes.getByTestId("namespace-change").filter({ hasText: a })).toHaveCount(3);
  await expect(position).toContainText(`ConfigMap ${a} created`);
  await expect(object(page, a)).toContainText("created");
  await expectAccessible(page, "namespace replay");
  await shot(page, "namespace-replay");

  // Play runs to the newest change and stops there.
  await page.getByTestId("replay-play").click();
  await expect(page.getByTestId("replay-play")).toHaveText("Pause");
  await expect(position).toContainText(`ConfigMap ${a} modified`, { timeout: 60_000 });
  await expect(page.getByTestId("replay-forward")).toBeDisabled({ timeout: 60_000 });
  await expect(page.getByTestId("replay-play")).toHaveText("Play");
  await expect(object(page, a)).toHaveAttribute("data-changed", "true");
});

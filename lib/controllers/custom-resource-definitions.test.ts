import { afterEach, describe, expect, it } from "vitest";
import { customResourceDefinition as crdKind, type CustomResourceDefinition } from "../kinds/custom-resource-definition";
import { CustomResourceDefinitionController, type DeleteCustomResources } from "./custom-resource-definitions";
import { cached, clusterWith, closeAll, del, eventually, write, type TestCluster } from "./test-cluster";

afterEach(closeAll);

async function cluster(deleteCustomResources?: DeleteCustomResources): Promise<TestCluster> {
  return clusterWith((c, informer) => new CustomResourceDefinitionController({ registry: c.registry, informer, deleteCustomResources }));
}

const definition = (plural: string, kind: string, extra: { shortNames?: string[]; group?: string } = {}): CustomResourceDefinition => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `${plural}.${extra.group ?? "shop.example.com"}` },
  spec: {
    group: extra.group ?? "shop.example.com",
    scope: "Namespaced",
    names: { plural, kind, ...(extra.shortNames ? { shortNames: extra.shortNames } : {}) },
    versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }],
  },
});

const crdOf = (c: TestCluster, name: string) => cached(c, crdKind.plural, "", name) as CustomResourceDefinition | undefined;
const condition = (crd: CustomResourceDefinition | undefined, type: string) => crd?.status?.conditions?.find((x) => x.type === type);

describe("CustomResourceDefinition naming and establishing", () => {
  it("accepts free names, then establishes the definition", async () => {
    const c = await cluster();
    await c.registry.create(crdKind, undefined, definition("widgets", "Widget", { shortNames: ["wd"] }), write);
    const crd = await eventually(() => { const x = crdOf(c, "widgets.shop.example.com"); return condition(x, "Established")?.status === "True" && x; }, 3000, "Established");
    expect(crd.status!.acceptedNames).toEqual({ plural: "widgets", singular: "widget", shortNames: ["wd"], kind: "Widget", listKind: "WidgetList" });
    expect(condition(crd, "NamesAccepted")).toMatchObject({ status: "True", reason: "NoConflicts", message: "no conflicts found" });
    expect(condition(crd, "Established")).toMatchObject({ status: "True", reason: "InitialNamesAccepted", message: "the initial names have been accepted" });
    expect(crd.status!.conditions!.map((x) => x.type)).toEqual(["NamesAccepted", "Established"]);
    expect(crd.status!.storedVersions).toEqual(["v1"]);
  });

  it("reports a name taken in the same group, and accepts it once the holder is gone", async () => {
    const c = await cluster();
    await c.registry.create(crdKind, undefined, definition("widgets", "Widget", { shortNames: ["wd"] }), write);
    await eventually(() => condition(crdOf(c, "widgets.shop.example.com"), "Established")?.status === "True", 3000, "first Established");
    await c.registry.create(crdKind, undefined, definition("gadgets", "Gadget", { shortNames: ["wd"] }), write);
    const taken = await eventually(() => { const x = crdOf(c, "gadgets.shop.example.com"); return condition(x, "NamesAccepted") && x; }, 3000, "NamesAccepted");
    expect(condition(taken, "NamesAccepted")).toMatchObject({ status: "False", reason: "ShortNamesConflict", message: '"wd" is already in use' });
    expect(condition(taken, "Established")).toMatchObject({ status: "False", reason: "NotAccepted", message: "not all names are accepted" });
    expect(taken.status!.acceptedNames).toEqual({ plural: "gadgets", singular: "gadget", kind: "Gadget", listKind: "GadgetList" });

    // Another group may use the same names.
    await c.registry.create(crdKind, undefined, definition("gadgets", "Gadget", { shortNames: ["wd"], group: "other.example.com" }), write);
    await eventually(() => condition(crdOf(c, "gadgets.other.example.com"), "Established")?.status === "True", 3000, "other group Established");

    await c.registry.delete(crdKind, "", "widgets.shop.example.com", del);
    await eventually(() => !crdOf(c, "widgets.shop.example.com"), 3000, "first CRD removed");
    const freed = await eventually(() => { const x = crdOf(c, "gadgets.shop.example.com"); return condition(x, "Established")?.status === "True" && x; }, 3000, "second Established");
    expect(freed.status!.acceptedNames!.shortNames).toEqual(["wd"]);
    expect(condition(freed, "NamesAccepted")).toMatchObject({ status: "True", reason: "NoConflicts" });
  });
});

describe("CustomResourceDefinition deletion", () => {
  it("marks the definition Terminating, removes its custom resources through the seam, then lets it go", async () => {
    const seen: string[] = [];
    const c = await cluster(async (crd) => {
      seen.push(`${crd.metadata.name} ${crd.status?.conditions?.find((x) => x.type === "Terminating")?.reason}`);
      return { type: "Terminating", status: "False", reason: "InstanceDeletionCompleted", message: "removed all instances" };
    });
    await c.registry.create(crdKind, undefined, definition("widgets", "Widget"), write);
    await eventually(() => condition(crdOf(c, "widgets.shop.example.com"), "Established")?.status === "True", 3000, "Established");
    const answer = await c.registry.delete(crdKind, "", "widgets.shop.example.com", del);
    const marked = (answer as { object: CustomResourceDefinition }).object;
    expect(marked.metadata.finalizers).toEqual(["customresourcecleanup.apiextensions.k8s.io"]);
    expect(condition(marked, "Terminating")).toMatchObject({ status: "True", reason: "InstanceDeletionPending" });
    await eventually(() => !crdOf(c, "widgets.shop.example.com"), 3000, "CRD removed");
    expect(seen).toEqual(["widgets.shop.example.com InstanceDeletionInProgress"]);
    const terminating = c.events.filter((e) => e.key.resource === crdKind.plural)
      .map((e) => condition(e.object as CustomResourceDefinition, "Terminating")?.reason).filter(Boolean);
    expect([...new Set(terminating)]).toEqual(["InstanceDeletionPending", "InstanceDeletionInProgress", "InstanceDeletionCompleted"]);
  });

  it("never calls the seam for a definition that was never established", async () => {
    let called = false;
    const c = await cluster(async () => { called = true; return { type: "Terminating", status: "False" }; });
    await c.registry.create(crdKind, undefined, definition("widgets", "Widget", { shortNames: ["wd"] }), write);
    await eventually(() => condition(crdOf(c, "widgets.shop.example.com"), "Established")?.status === "True", 3000, "Established");
    await c.registry.create(crdKind, undefined, definition("gadgets", "Gadget", { shortNames: ["wd"] }), write);
    await eventually(() => condition(crdOf(c, "gadgets.shop.example.com"), "NamesAccepted")?.status === "False", 3000, "conflict");
    await c.registry.delete(crdKind, "", "gadgets.shop.example.com", del);
    await eventually(() => !crdOf(c, "gadgets.shop.example.com"), 3000, "removed");
    const reasons = c.events.filter((e) => e.key.name === "gadgets.shop.example.com")
      .map((e) => condition(e.object as CustomResourceDefinition, "Terminating")?.reason).filter(Boolean);
    expect(reasons).toContain("NeverEstablished");
    expect(called).toBe(false);
  });
});

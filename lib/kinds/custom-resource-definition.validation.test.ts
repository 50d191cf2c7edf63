// ValidateCustomResourceDefinition(Update), the v1 defaults and the strategy, with kube-apiserver 1.32's messages
// and paths (apiextensions-apiserver pkg/apis/apiextensions/validation, v1 defaults.go, registry strategy.go).
import { describe, expect, it } from "vitest";
import {
  customResourceDefinition as crdKind, CUSTOM_RESOURCE_CLEANUP_FINALIZER, setCondition, type CustomResourceDefinition,
  type CustomResourceDefinitionVersion,
} from "./custom-resource-definition";
import { create, created, update, variant } from "./validation-harness";

const DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

const schema = (props: Record<string, unknown> = {}) => ({
  openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer" }, ...props } }, status: { type: "object" } } },
});

/** A two-version CRD as an operator ships it: v1beta1 served and deprecated, v1 the storage version, status and scale. */
const base: CustomResourceDefinition = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.shop.example.com" },
  spec: {
    group: "shop.example.com",
    scope: "Namespaced",
    names: { plural: "widgets", kind: "Widget", shortNames: ["wd"], categories: ["all"] },
    versions: [
      { name: "v1beta1", served: true, storage: false, deprecated: true, schema: schema() },
      {
        name: "v1", served: true, storage: true, schema: schema({ color: { type: "string" } }),
        subresources: { status: {}, scale: { specReplicasPath: ".spec.size", statusReplicasPath: ".status.size" } },
        additionalPrinterColumns: [{ name: "Size", type: "integer", jsonPath: ".spec.size" }],
      },
    ],
  },
};

const causesOf = (mutate: (c: CustomResourceDefinition) => void) => create(crdKind, variant(base, mutate)).causes;
const versionsOf = (c: CustomResourceDefinition) => c.spec!.versions as CustomResourceDefinitionVersion[];

describe("CustomResourceDefinition defaults and create strategy", () => {
  it("fills singular, listKind and conversion None; status starts with the storage version; generation 1 is the registry's", () => {
    const crd = created<CustomResourceDefinition>(crdKind, variant(base, (c) => {
      c.status = { conditions: [{ type: "Established", status: "True" }], storedVersions: ["v1beta1"] };
    }));
    expect(crd.spec!.names).toEqual({ plural: "widgets", kind: "Widget", shortNames: ["wd"], categories: ["all"], singular: "widget", listKind: "WidgetList" });
    expect(crd.spec!.conversion).toEqual({ strategy: "None" });
    expect(crd.status).toEqual({ acceptedNames: { plural: "", kind: "" }, storedVersions: ["v1"] });
    expect(crdKind.generation).toBe(true);
  });

  it("defaults a webhook service's port to 443", () => {
    const c = variant(base, (c) => { c.spec!.conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"], clientConfig: { service: { namespace: "ns", name: "conv" } } } }; });
    crdKind.applyDefaults!(c);
    expect(c.spec!.conversion!.webhook!.clientConfig!.service!.port).toBe(443);
  });

  it("accepts the realistic two-version definition", () => {
    expect(create(crdKind, base).causes).toEqual([]);
  });
});

describe("CustomResourceDefinition validation (kube's messages and paths)", () => {
  it("requires the name <plural>.<group>", () => {
    expect(causesOf((c) => { c.metadata.name = "widgets.example.com"; })).toEqual([
      { field: "metadata.name", reason: "FieldValueInvalid", message: 'Invalid value: "widgets.example.com": must be spec.names.plural+"."+spec.group' },
    ]);
  });

  it("requires a group that is a DNS subdomain with at least one dot", () => {
    expect(causesOf((c) => { c.metadata.name = "widgets.shop"; c.spec!.group = "shop"; })).toEqual([
      { field: "spec.group", reason: "FieldValueInvalid", message: 'Invalid value: "shop": should be a domain with at least one dot' },
    ]);
    const causes = causesOf((c) => { c.spec!.group = ""; c.metadata.name = "widgets."; });
    expect(causes).toContainEqual({ field: "spec.group", reason: "FieldValueRequired", message: "Required value" });
    const bad = causesOf((c) => { c.spec!.group = "Shop.Example.com"; c.metadata.name = "widgets.Shop.Example.com"; });
    expect(bad.find((e) => e.field === "spec.group")?.message).toMatch(/^Invalid value: "Shop.Example.com": a lowercase RFC 1123 subdomain must consist of/);
  });

  it("requires the scope, Cluster or Namespaced", () => {
    expect(causesOf((c) => { c.spec!.scope = "Global"; })).toEqual([
      { field: "spec.scope", reason: "FieldValueNotSupported", message: 'Unsupported value: "Global": supported values: "Cluster", "Namespaced"' },
    ]);
    expect(causesOf((c) => { delete c.spec!.scope; })).toEqual([{ field: "spec.scope", reason: "FieldValueRequired", message: "Required value" }]);
  });

  it("requires exactly one storage version and unique version names", () => {
    const none = causesOf((c) => { versionsOf(c)[1].storage = false; });
    expect(none.map((e) => [e.field, e.reason])).toEqual([["spec.versions", "FieldValueInvalid"], ["status.storedVersions", "FieldValueInvalid"]]);
    expect(none[0].message).toMatch(/^Invalid value: \[\]apiextensions\.CustomResourceDefinitionVersion\{.*\}: must have exactly one version marked as storage version$/);
    expect(none[1].message).toBe("Invalid value: []string(nil): must have at least one stored version");
    const two = causesOf((c) => { versionsOf(c)[0].storage = true; });
    // As in kube, storedVersions took the first storage version, so the second is reported missing from it.
    expect(two.map((e) => e.message.replace(/^.*\}: /, ""))).toEqual(["must have exactly one version marked as storage version", "must have the storage version v1"]);
    const dup = causesOf((c) => { versionsOf(c)[0].name = "v1"; });
    expect(dup.map((e) => [e.field, e.message.replace(/^.*\}: /, "")])).toEqual([
      ["spec.versions", "must contain unique version names"],
      // kube's storedVersions walk forgets a name at its first version, so the duplicate storage one is "missing".
      ["status.storedVersions", "must have the storage version v1"],
    ]);
  });

  it("requires version names that are DNS-1035 labels and a schema per version", () => {
    expect(causesOf((c) => { versionsOf(c)[0].name = "V1beta1"; })).toContainEqual(
      { field: "spec.versions[0].name", reason: "FieldValueInvalid", message: `Invalid value: "V1beta1": ${DNS1035}` },
    );
    expect(causesOf((c) => { delete versionsOf(c)[0].schema; })).toEqual([
      { field: "spec.versions[0].schema.openAPIV3Schema", reason: "FieldValueRequired", message: "Required value: schemas are required" },
    ]);
  });

  it("checks the names: required, DNS-1035, kind and listKind mixed case, distinct", () => {
    expect(causesOf((c) => { c.spec!.names = { plural: "widgets", kind: "" }; })).toEqual([
      { field: "spec.names.singular", reason: "FieldValueRequired", message: "Required value" },
      { field: "spec.names.kind", reason: "FieldValueRequired", message: "Required value" },
      { field: "spec.names.listKind", reason: "FieldValueRequired", message: "Required value" },
    ]);
    expect(causesOf((c) => { c.spec!.names = { plural: "widgets", kind: "Widget_X", listKind: "Widget_X", shortNames: ["W"] }; })).toEqual([
      { field: "spec.names.singular", reason: "FieldValueInvalid", message: `Invalid value: "widget_x": ${DNS1035}` },
      { field: "spec.names.kind", reason: "FieldValueInvalid", message: `Invalid value: "Widget_X": may have mixed case, but should otherwise match: ${DNS1035}` },
      { field: "spec.names.listKind", reason: "FieldValueInvalid", message: `Invalid value: "Widget_X": may have mixed case, but should otherwise match: ${DNS1035}` },
      { field: "spec.names.shortNames[0]", reason: "FieldValueInvalid", message: `Invalid value: "W": ${DNS1035}` },
      { field: "spec.names.listKind", reason: "FieldValueInvalid", message: 'Invalid value: "Widget_X": kind and listKind may not be the same' },
    ]);
  });

  it("reports a schema shared by every version at spec.validation, as kube's internal type does", () => {
    const causes = causesOf((c) => {
      versionsOf(c).forEach((v) => { v.schema = { openAPIV3Schema: { type: "object", nullable: true } }; delete v.subresources; });
    });
    expect(causes).toEqual([{ field: "spec.validation.openAPIV3Schema.nullable", reason: "FieldValueForbidden", message: "Forbidden: nullable cannot be true at the root" }]);
  });

  it("allows only an object root with the status subresource", () => {
    // The structural check (lib/crd-schema) adds its own "must be object at the root" to this one.
    expect(causesOf((c) => { versionsOf(c)[1].schema = { openAPIV3Schema: { type: "string" } }; })).toContainEqual(
      { field: "spec.versions[1].schema.openAPIV3Schema.type", reason: "FieldValueInvalid", message: 'Invalid value: "string": only "object" is allowed as the type at the root of the schema if the status subresource is enabled' },
    );
  });

  it("checks printer columns (type, format, JSONPath) and scale paths", () => {
    expect(causesOf((c) => { versionsOf(c)[1].additionalPrinterColumns = [{ name: "", type: "float", format: "uuid", jsonPath: "spec.size" }]; })).toEqual([
      { field: "spec.versions[1].additionalPrinterColumns[0].name", reason: "FieldValueRequired", message: "Required value" },
      { field: "spec.versions[1].additionalPrinterColumns[0].type", reason: "FieldValueInvalid", message: 'Invalid value: "float": must be one of boolean,date,integer,number,string' },
      { field: "spec.versions[1].additionalPrinterColumns[0].format", reason: "FieldValueInvalid", message: 'Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password' },
      { field: "spec.versions[1].additionalPrinterColumns[0].JSONPath", reason: "FieldValueInvalid", message: 'Invalid value: "spec.size": must be a simple json path starting with .' },
    ]);
    expect(causesOf((c) => { versionsOf(c)[1].subresources!.scale = { specReplicasPath: ".status.size", statusReplicasPath: "" }; })).toEqual([
      { field: "spec.versions[1].subresources.scale.specReplicasPath", reason: "FieldValueInvalid", message: 'Invalid value: ".status.size": should be a json path under .spec' },
      { field: "spec.versions[1].subresources.scale.statusReplicasPath", reason: "FieldValueRequired", message: "Required value" },
    ]);
  });

  it("checks selectable fields against the schema", () => {
    expect(causesOf((c) => { versionsOf(c)[1].selectableFields = [{ jsonPath: ".spec.color" }, { jsonPath: ".spec.color" }, { jsonPath: ".spec" }, { jsonPath: ".spec.nope" }]; })).toEqual([
      { field: "spec.versions[1].selectableFields[1].jsonPath", reason: "FieldValueDuplicate", message: 'Duplicate value: ".spec.color"' },
      { field: "spec.versions[1].selectableFields[2].jsonPath", reason: "FieldValueInvalid", message: 'Invalid value: ".spec": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.' },
      { field: "spec.versions[1].selectableFields[3].jsonPath", reason: "FieldValueInvalid", message: 'Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field' },
    ]);
  });

  it("refuses a deprecation warning on a version that is not deprecated", () => {
    expect(causesOf((c) => { versionsOf(c)[1].deprecationWarning = "old"; })).toEqual([
      { field: "spec.versions[1].deprecationWarning", reason: "FieldValueInvalid", message: 'Invalid value: "old": can only be set for deprecated versions' },
    ]);
  });

  it("refuses a conversion webhook: kube's own checks, then this server's `supported values: \"None\"`", () => {
    expect(causesOf((c) => { c.spec!.conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"], clientConfig: { url: "https://conv.example.com/convert" } } }; })).toEqual([
      { field: "spec.conversion.strategy", reason: "FieldValueNotSupported", message: 'Unsupported value: "Webhook": supported values: "None"' },
    ]);
    expect(causesOf((c) => { c.spec!.conversion = { strategy: "Webhook" }; })).toEqual([
      { field: "spec.conversion.webhookClientConfig", reason: "FieldValueRequired", message: "Required value: required when strategy is set to Webhook" },
      { field: "spec.conversion.conversionReviewVersions", reason: "FieldValueRequired", message: "Required value" },
      { field: "spec.conversion.strategy", reason: "FieldValueNotSupported", message: 'Unsupported value: "Webhook": supported values: "None"' },
    ]);
    expect(causesOf((c) => { c.spec!.conversion = { strategy: "Other" }; })).toEqual([
      { field: "spec.conversion.strategy", reason: "FieldValueNotSupported", message: 'Unsupported value: "Other": supported values: "None", "Webhook"' },
    ]);
  });

  it("refuses preserveUnknownFields: true", () => {
    expect(causesOf((c) => { c.spec!.preserveUnknownFields = true; })).toEqual([
      { field: "spec.preserveUnknownFields", reason: "FieldValueInvalid", message: "Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead" },
    ]);
  });

  it("asks kube's own groups for the API approval annotation", () => {
    const protectedGroup = (c: CustomResourceDefinition) => { c.spec!.group = "shop.k8s.io"; c.metadata.name = "widgets.shop.k8s.io"; };
    expect(causesOf(protectedGroup)).toEqual([
      { field: "metadata.annotations[api-approved.kubernetes.io]", reason: "FieldValueRequired", message: 'Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111' },
    ]);
    expect(causesOf((c) => { protectedGroup(c); c.metadata.annotations = { "api-approved.kubernetes.io": "unapproved, testing" }; })).toEqual([]);
  });
});

describe("CustomResourceDefinition updates", () => {
  const stored = created<CustomResourceDefinition>(crdKind, base);
  const established = variant(stored, (c) => { setCondition(c, { type: "Established", status: "True", reason: "InitialNamesAccepted", message: "the initial names have been accepted" }); });

  it("keeps group and plural; scope and kind too once Established", () => {
    const body = variant(stored, (c) => { c.spec!.scope = "Cluster"; c.spec!.names!.kind = "Gadget"; c.spec!.names!.listKind = "GadgetList"; });
    expect(update(crdKind, stored, body).causes).toEqual([]);
    expect(update(crdKind, established, body).causes).toEqual([
      { field: "spec.scope", reason: "FieldValueInvalid", message: 'Invalid value: "Cluster": field is immutable' },
      { field: "spec.names.kind", reason: "FieldValueInvalid", message: 'Invalid value: "Gadget": field is immutable' },
    ]);
    expect(update(crdKind, stored, variant(stored, (c) => { c.spec!.group = "other.example.com"; })).causes).toContainEqual(
      { field: "spec.group", reason: "FieldValueInvalid", message: 'Invalid value: "other.example.com": field is immutable' },
    );
  });

  it("adds a new storage version to storedVersions and keeps status as stored", () => {
    const body = variant(stored, (c) => {
      versionsOf(c)[0].storage = true;
      versionsOf(c)[1].storage = false;
      c.status = { storedVersions: [] };
    });
    const { causes, object } = update(crdKind, stored, body);
    expect(causes).toEqual([]);
    expect((object as CustomResourceDefinition).status!.storedVersions).toEqual(["v1", "v1beta1"]);
  });

  it("refuses dropping a version that objects are stored in", () => {
    const twice = update(crdKind, stored, variant(stored, (c) => { versionsOf(c)[0].storage = true; versionsOf(c)[1].storage = false; })).object as CustomResourceDefinition;
    const { causes } = update(crdKind, twice, variant(twice, (c) => { c.spec!.versions = [versionsOf(c)[0]]; }));
    expect(causes).toEqual([{
      field: "status.storedVersions[0]", reason: "FieldValueInvalid",
      message: 'Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    }]);
  });
});

describe("CustomResourceDefinition deletion", () => {
  it("the first DELETE adds the cleanup finalizer and the Terminating condition and keeps the object", () => {
    const crd = created<CustomResourceDefinition>(crdKind, base);
    crd.metadata.deletionTimestamp = "2026-11-28T07:00:00Z";
    const kept = crdKind.beginDeletion!(crd, crd.metadata.deletionTimestamp) as CustomResourceDefinition;
    expect(kept.metadata.finalizers).toEqual([CUSTOM_RESOURCE_CLEANUP_FINALIZER]);
    expect(kept.status!.conditions).toEqual([expect.objectContaining({
      type: "Terminating", status: "True", reason: "InstanceDeletionPending",
      message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
    })]);
  });
});

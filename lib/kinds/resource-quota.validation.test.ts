import { describe, expect, it } from "vitest";
import { resourceQuota, type ResourceQuota } from "./resource-quota";
import { create, created, templateOf, update, variant, type Row } from "./validation-harness";

const base = templateOf<ResourceQuota>(resourceQuota);
const spec = (s: NonNullable<ResourceQuota["spec"]>) => (q: ResourceQuota) => { q.spec = s; };

const rows: Row<ResourceQuota>[] = [
  ["object counts and prefixed names", spec({ hard: { pods: "5", "count/deployments.apps": "3", "gold.storageclass.storage.k8s.io/requests.storage": "10Gi" } }), null],
  ["hugepages quotas", spec({ hard: { "requests.hugepages-2Mi": "4Mi" } }), null],
  ["an unknown unprefixed resource", spec({ hard: { gpus: "1" } }), [
    { field: "spec.hard[gpus]", reason: "FieldValueInvalid", message: 'Invalid value: "gpus": must be a standard resource type or fully qualified' },
    { field: "spec.hard[gpus]", reason: "FieldValueInvalid", message: 'Invalid value: "gpus": must be a standard resource for quota' },
  ]],
  ["storage itself is not a quota resource", spec({ hard: { storage: "1Gi" } }),
    { field: "spec.hard[storage]", reason: "FieldValueInvalid", message: 'Invalid value: "storage": must be a standard resource for quota' }],
  ["a negative value", spec({ hard: { cpu: "-1" } }),
    { field: "spec.hard[cpu]", reason: "FieldValueInvalid", message: 'Invalid value: "-1": must be greater than or equal to 0' }],
  ["a fractional object count", spec({ hard: { pods: "1.5" } }),
    { field: "spec.hard[pods]", reason: "FieldValueInvalid", message: "Invalid value: 1500m: must be an integer" }],
  ["a fractional cpu is fine", spec({ hard: { "requests.cpu": "1.5" } }), null],
  ["an unknown scope", spec({ hard: { pods: "1" }, scopes: ["Sometimes"] }),
    { field: "spec.scopes", reason: "FieldValueInvalid", message: 'Invalid value: []core.ResourceQuotaScope{"Sometimes"}: unsupported scope' }],
  ["BestEffort with compute resources", spec({ hard: { pods: "1", cpu: "1" }, scopes: ["BestEffort"] }),
    { field: "spec.scopes", reason: "FieldValueInvalid", message: 'Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource' }],
  ["Terminating with compute resources", spec({ hard: { pods: "1", "limits.memory": "1Gi" }, scopes: ["Terminating"] }), null],
  ["NotTerminating with secrets", spec({ hard: { secrets: "1" }, scopes: ["NotTerminating"] }),
    { field: "spec.scopes", reason: "FieldValueInvalid", message: 'Invalid value: []core.ResourceQuotaScope{"NotTerminating"}: unsupported scope applied to resource' }],
  ["conflicting scopes", spec({ hard: { pods: "1" }, scopes: ["BestEffort", "NotBestEffort"] }),
    { field: "spec.scopes", reason: "FieldValueInvalid", message: 'Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: conflicting scopes' }],
  ["a scope selector with In and no values", (q) => {
    q.spec = { hard: { pods: "1" }, scopeSelector: { matchExpressions: [{ scopeName: "PriorityClass", operator: "In" }] } } as ResourceQuota["spec"];
  }, { field: "spec.scopeSelector.matchExpressions.values", reason: "FieldValueRequired", message: "Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector" }],
  ["a scope selector with a bad operator for BestEffort", (q) => {
    q.spec = { hard: { pods: "1" }, scopeSelector: { matchExpressions: [{ scopeName: "BestEffort", operator: "In", values: ["x"] }] } } as ResourceQuota["spec"];
  }, { field: "spec.scopeSelector.matchExpressions.operator", reason: "FieldValueInvalid", message: "Invalid value: \"In\": must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity" }],
];

describe("ResourceQuota validation", () => {
  it("accepts its template", () => expect(create(resourceQuota, base).causes).toEqual([]));

  it.each(rows)("%s", (_name, mutate, expected) => {
    expect(create(resourceQuota, variant(base, mutate)).causes).toEqual(expected === null ? [] : [expected].flat());
  });

  it("stores hard limits in canonical form", () => {
    const q = created<ResourceQuota>(resourceQuota, variant(base, spec({ hard: { "requests.cpu": "1000m", "requests.memory": "1024Mi", pods: 10 as unknown as string } })));
    expect(q.spec!.hard).toEqual({ "requests.cpu": "1", "requests.memory": "1Gi", pods: "10" });
    expect(q.status).toEqual({});
  });

  it("keeps the scopes fixed on update", () => {
    const old = created<ResourceQuota>(resourceQuota, variant(base, spec({ hard: { pods: "1" }, scopes: ["BestEffort"] })));
    expect(update(resourceQuota, old, variant(old, (q) => { q.spec!.hard = { pods: "2" }; })).causes).toEqual([]);
    expect(update(resourceQuota, old, variant(old, (q) => { q.spec!.scopes = ["NotBestEffort"]; })).causes).toEqual([
      { field: "spec.scopes", reason: "FieldValueInvalid", message: 'Invalid value: []core.ResourceQuotaScope{"NotBestEffort"}: field is immutable' },
    ]);
  });
});

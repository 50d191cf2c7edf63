import { describe, expect, it } from "vitest";
import { limitRange, type LimitRange, type LimitRangeItem } from "./limit-range";
import { create, created, templateOf, variant, type Row } from "./validation-harness";

const base = templateOf<LimitRange>(limitRange);
const item = (i: LimitRangeItem) => (lr: LimitRange) => { lr.spec = { limits: [i] }; };

const rows: Row<LimitRange>[] = [
  ["a Pod item with min and max", item({ type: "Pod", min: { cpu: "100m" }, max: { cpu: "2" } }), null],
  ["an unknown unprefixed type", item({ type: "Node" }),
    { field: "spec.limits[0].type", reason: "FieldValueInvalid", message: 'Invalid value: "Node": must be a standard limit type or fully qualified' }],
  ["a domain-qualified custom type", item({ type: "example.com/thing", max: { "example.com/units": "4" } }), null],
  ["the same type twice", (lr) => { lr.spec = { limits: [{ type: "Pod" }, { type: "Pod" }] }; },
    { field: "spec.limits[1].type", reason: "FieldValueDuplicate", message: 'Duplicate value: "Pod"' }],
  ["a Pod item with defaults", item({ type: "Pod", default: { cpu: "1" } }),
    { field: "spec.limits[0].default", reason: "FieldValueForbidden", message: "Forbidden: may not be specified when `type` is 'Pod'" }],
  ["a Pod item with default requests", item({ type: "Pod", defaultRequest: { cpu: "1" } }),
    { field: "spec.limits[0].defaultRequest", reason: "FieldValueForbidden", message: "Forbidden: may not be specified when `type` is 'Pod'" }],
  ["a container resource that is not for containers", item({ type: "Container", max: { storage: "1Gi" } }), [
    { field: "spec.limits[0].max[storage]", reason: "FieldValueInvalid", message: 'Invalid value: "storage": must be a standard resource for containers' },
    { field: "spec.limits[0].default[storage]", reason: "FieldValueInvalid", message: 'Invalid value: "storage": must be a standard resource for containers' },
    { field: "spec.limits[0].defaultRequest[storage]", reason: "FieldValueInvalid", message: 'Invalid value: "storage": must be a standard resource for containers' },
  ]],
  ["a claim item needs a storage bound", item({ type: "PersistentVolumeClaim", max: { "requests.storage": "1Gi" } }),
    { field: "spec.limits[0].limits", reason: "FieldValueRequired", message: "Required value: either minimum or maximum storage value is required, but neither was provided" }],
  ["a claim item with a storage maximum", item({ type: "PersistentVolumeClaim", max: { storage: "10Gi" } }), null],
  ["min above max", item({ type: "Pod", min: { cpu: "2" }, max: { cpu: "1" } }),
    { field: "spec.limits[0].min[cpu]", reason: "FieldValueInvalid", message: "Invalid value: 2: min value 2 is greater than max value 1" }],
  ["min above the default request", item({ type: "Container", min: { memory: "1Gi" }, defaultRequest: { memory: "512Mi" }, default: { memory: "2Gi" } }),
    { field: "spec.limits[0].defaultRequest[memory]", reason: "FieldValueInvalid", message: "Invalid value: 512Mi: min value 1Gi is greater than default request value 512Mi" }],
  ["the default request above max", item({ type: "Container", max: { cpu: "1" }, default: { cpu: "1" }, defaultRequest: { cpu: "1500m" } }), [
    { field: "spec.limits[0].defaultRequest[cpu]", reason: "FieldValueInvalid", message: "Invalid value: 1500m: default request value 1500m is greater than max value 1" },
    { field: "spec.limits[0].defaultRequest[cpu]", reason: "FieldValueInvalid", message: "Invalid value: 1500m: default request value 1500m is greater than default limit value 1" },
  ]],
  ["the default above max", item({ type: "Container", max: { cpu: "1" }, default: { cpu: "2" }, defaultRequest: { cpu: "1" } }),
    { field: "spec.limits[0].default[cpu]", reason: "FieldValueInvalid", message: "Invalid value: 1: default value 2 is greater than max value 1" }],
  ["min above the default", item({ type: "Container", min: { cpu: "2" }, default: { cpu: "1" }, defaultRequest: { cpu: "2" } }), [
    { field: "spec.limits[0].defaultRequest[cpu]", reason: "FieldValueInvalid", message: "Invalid value: 2: default request value 2 is greater than default limit value 1" },
    { field: "spec.limits[0].default[cpu]", reason: "FieldValueInvalid", message: "Invalid value: 2: min value 2 is greater than default value 1" },
  ]],
  ["a ratio below 1", item({ type: "Pod", maxLimitRequestRatio: { cpu: "500m" } }),
    { field: "spec.limits[0].maxLimitRequestRatio[cpu]", reason: "FieldValueInvalid", message: "Invalid value: 500m: ratio 500m is less than 1" }],
  ["a ratio above max/min", item({ type: "Pod", min: { cpu: "1" }, max: { cpu: "3" }, maxLimitRequestRatio: { cpu: "4" } }),
    { field: "spec.limits[0].maxLimitRequestRatio[cpu]", reason: "FieldValueInvalid", message: "Invalid value: 4: ratio 4 is greater than max/min = 3.000000" }],
  ["a ratio within max/min", item({ type: "Pod", min: { cpu: "1" }, max: { cpu: "3" }, maxLimitRequestRatio: { cpu: "3" } }), null],
  ["hugepages defaults must equal their requests", item({ type: "Container", default: { "hugepages-2Mi": "4Mi" }, defaultRequest: { "hugepages-2Mi": "2Mi" } }),
    { field: "spec.limits[0].defaultRequest[hugepages-2Mi]", reason: "FieldValueInvalid", message: "Invalid value: 2Mi: default value 4Mi must equal to defaultRequest value 2Mi in hugepages-2Mi" }],
];

describe("LimitRange validation", () => {
  it("accepts its template", () => expect(create(limitRange, base).causes).toEqual([]));

  it.each(rows)("%s", (_name, mutate, expected) => {
    expect(create(limitRange, variant(base, mutate)).causes).toEqual(expected === null ? [] : [expected].flat());
  });

  it("defaults a Container item's default from max and defaultRequest from default, then min", () => {
    const lr = created<LimitRange>(limitRange, variant(base, item({ type: "Container", max: { cpu: "2", memory: "1Gi" }, min: { memory: "64Mi", "ephemeral-storage": "1Gi" } })));
    expect(lr.spec!.limits[0]).toEqual({
      type: "Container",
      max: { cpu: "2", memory: "1Gi" },
      min: { memory: "64Mi", "ephemeral-storage": "1Gi" },
      default: { cpu: "2", memory: "1Gi" },
      defaultRequest: { cpu: "2", memory: "1Gi", "ephemeral-storage": "1Gi" },
    });
  });

  it("does not default Pod items and writes quantities canonically", () => {
    const lr = created<LimitRange>(limitRange, variant(base, item({ type: "Pod", max: { cpu: "1000m", memory: "1.5Gi" } })));
    expect(lr.spec!.limits[0]).toEqual({ type: "Pod", max: { cpu: "1", memory: "1536Mi" } });
  });

  it("refuses malformed quantities at decode time", () => {
    expect(create(limitRange, variant(base, item({ type: "Pod", max: { cpu: "one" } }))).decodeError)
      .toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  });

  it("names an unnamed LimitRange with a UUID", () => {
    const lr = created<LimitRange>(limitRange, variant(base, (l) => { delete l.metadata.name; }));
    expect(lr.metadata.name).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

import { describe, expect, it } from "vitest";
import { configMap, type ConfigMap } from "./config-map";
import { create, created, templateOf, update, variant, type Row } from "./validation-harness";

const base = templateOf<ConfigMap>(configMap);
const keyMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

const rows: Row<ConfigMap>[] = [
  ["keys may use dots, dashes and underscores", (cm) => { cm.data = { "a.b-c_D": "x" }; }, null],
  ["a key with a space", (cm) => { cm.data = { "bad key": "x" }; },
    { field: "data[bad key]", reason: "FieldValueInvalid", message: `Invalid value: "bad key": ${keyMsg}` }],
  ["the key '.'", (cm) => { cm.data = { ".": "x" }; }, { field: "data[.]", reason: "FieldValueInvalid", message: 'Invalid value: ".": must not be \'.\'' }],
  ["a key starting with '..'", (cm) => { cm.data = { "..a": "x" }; }, { field: "data[..a]", reason: "FieldValueInvalid", message: 'Invalid value: "..a": must not start with \'..\'' }],
  ["a key longer than 253", (cm) => { cm.data = { ["k".repeat(254)]: "x" }; },
    { field: `data[${"k".repeat(254)}]`, reason: "FieldValueInvalid", message: `Invalid value: "${"k".repeat(254)}": must be no more than 253 characters` }],
  ["a key in both data and binaryData", (cm) => { cm.data = { a: "x" }; cm.binaryData = { a: "eA==" }; },
    { field: "data[a]", reason: "FieldValueInvalid", message: 'Invalid value: "a": duplicate of key present in binaryData' }],
  ["exactly 1 MiB of values", (cm) => { cm.data = { a: "x".repeat(1048576) }; }, null],
  ["more than 1 MiB of values", (cm) => { cm.data = { a: "x".repeat(1048576), b: "y" }; },
    { field: "", reason: "FieldValueTooLong", message: "Too long: must have at most 1048576 bytes" }],
  ["binaryData counts decoded bytes", (cm) => { cm.data = { a: "x".repeat(1048575) }; cm.binaryData = { b: "eHk=" }; },
    { field: "", reason: "FieldValueTooLong", message: "Too long: must have at most 1048576 bytes" }],
];

describe("ConfigMap validation", () => {
  it("accepts its template", () => expect(create(configMap, base).causes).toEqual([]));

  it.each(rows)("%s", (_name, mutate, expected) => {
    const { causes } = create(configMap, variant(base, mutate));
    expect(causes).toEqual(expected === null ? [] : [expected].flat());
  });

  it("refuses binaryData that is not base64 and data values that are not strings at decode time", () => {
    expect(create(configMap, variant(base, (cm) => { cm.binaryData = { a: "eA=" }; })).decodeError).toBe("illegal base64 data at input byte 3");
    expect(create(configMap, variant(base, (cm) => { cm.data = { a: 1 as unknown as string }; })).decodeError)
      .toBe("json: cannot unmarshal number into Go struct field ConfigMap.data of type string");
  });

  it("keeps an immutable ConfigMap's data and immutability", () => {
    const old = created<ConfigMap>(configMap, variant(base, (cm) => { cm.immutable = true; }));
    expect(update(configMap, old, variant(old, (cm) => { cm.metadata.labels = { x: "y" }; })).causes).toEqual([]);
    expect(update(configMap, old, variant(old, (cm) => { cm.data = { LOG_LEVEL: "debug" }; })).causes).toEqual([
      { field: "data", reason: "FieldValueForbidden", message: "Forbidden: field is immutable when `immutable` is set" },
    ]);
    expect(update(configMap, old, variant(old, (cm) => { cm.immutable = false; })).causes).toEqual([
      { field: "immutable", reason: "FieldValueForbidden", message: "Forbidden: field is immutable when `immutable` is set" },
    ]);
  });

  it("lets a mutable ConfigMap change its data", () => {
    const old = created<ConfigMap>(configMap, base);
    expect(update(configMap, old, variant(old, (cm) => { cm.data = {}; })).causes).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { event, type Event } from "./event";
import { create, created, templateOf, update, variant, type Row } from "./validation-harness";

const base = templateOf<Event>(event);
const newStyle = (e: Event) => {
  e.metadata.namespace = "web";
  e.involvedObject = { kind: "Pod", name: "web", namespace: "web" };
  e.eventTime = "2025-05-01T12:34:56.123456Z";
  e.reportingComponent = "kubelet";
  e.reportingInstance = "node-1";
  e.action = "Pulling";
  e.reason = "Pulling";
};

const rows: Row<Event>[] = [
  ["an event about a cluster-scoped object in default", (e) => { e.involvedObject = { kind: "Node", name: "node-1" }; }, null],
  ["an event about a cluster-scoped object elsewhere", (e) => { e.metadata.namespace = "web"; },
    { field: "involvedObject.namespace", reason: "FieldValueInvalid", message: 'Invalid value: "": does not match event.namespace' }],
  ["an involved object in another namespace", (e) => { e.involvedObject.namespace = "other"; },
    { field: "involvedObject.namespace", reason: "FieldValueInvalid", message: 'Invalid value: "other": does not match event.namespace' }],
  ["names are only path segments (upper case, colons)", (e) => { e.metadata.name = "Web:1.abc"; }, null],
  ["a name with a slash", (e) => { e.metadata.name = "a/b"; },
    { field: "metadata.name", reason: "FieldValueInvalid", message: 'Invalid value: "a/b": may not contain \'/\'' }],
  ["any type string is accepted on core/v1", (e) => { e.type = "Strange"; }, null],
  ["a new-style event", newStyle, null],
  ["a new-style event without a reporter", (e) => { newStyle(e); e.reportingComponent = ""; }, [
    { field: "reportingController", reason: "FieldValueRequired", message: "Required value" },
    { field: "reportingController", reason: "FieldValueInvalid", message: 'Invalid value: "": name part must be non-empty' },
    { field: "reportingController", reason: "FieldValueInvalid", message: "Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')" },
  ]],
  ["a new-style event without action and instance", (e) => { newStyle(e); e.action = ""; e.reportingInstance = ""; }, [
    { field: "reportingInstance", reason: "FieldValueRequired", message: "Required value" },
    { field: "action", reason: "FieldValueRequired", message: "Required value" },
  ]],
  ["a new-style event with a long reason", (e) => { newStyle(e); e.reason = "r".repeat(129); },
    { field: "reason", reason: "FieldValueInvalid", message: 'Invalid value: "": can have at most 128 characters' }],
  ["a new-style event with a long message", (e) => { newStyle(e); e.message = "m".repeat(1025); },
    { field: "message", reason: "FieldValueInvalid", message: 'Invalid value: "": can have at most 1024 characters' }],
  ["a new-style event about a cluster object in kube-system", (e) => {
    newStyle(e); e.metadata.namespace = "kube-system"; e.involvedObject = { kind: "Node", name: "n" };
  }, null],
  ["a new-style event about a cluster object elsewhere", (e) => { newStyle(e); e.involvedObject = { kind: "Node", name: "n" }; },
    { field: "involvedObject.namespace", reason: "FieldValueInvalid", message: 'Invalid value: "": does not match event.namespace' }],
];

describe("Event validation", () => {
  it("accepts its template", () => expect(create(event, base).causes).toEqual([]));

  it.each(rows)("%s", (_name, mutate, expected) => {
    expect(create(event, variant(base, mutate)).causes).toEqual(expected === null ? [] : [expected].flat());
  });

  it("applies no defaults", () => {
    expect(created<Event>(event, base)).toEqual(base);
  });

  it("allows any change on update, re-checking the namespaces", () => {
    const old = created<Event>(event, base);
    expect(update(event, old, variant(old, (e) => { e.count = 2; e.message = "again"; })).causes).toEqual([]);
    expect(update(event, old, variant(old, (e) => { e.involvedObject.namespace = "x"; })).causes).toEqual([
      { field: "involvedObject.namespace", reason: "FieldValueInvalid", message: 'Invalid value: "x": does not match event.namespace' },
    ]);
  });
});

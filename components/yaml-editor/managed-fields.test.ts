import { describe, expect, it } from "vitest";
import { managerFields } from "./managed-fields";

describe("managerFields", () => {
  it("decodes each entry's FieldsV1 into kube's paths, a field before what it contains", () => {
    const rows = managerFields({
      metadata: {
        name: "web",
        managedFields: [
          {
            manager: "kubectl-create",
            operation: "Update",
            apiVersion: "v1",
            time: "2026-11-24T06:00:00Z",
            fieldsType: "FieldsV1",
            fieldsV1: { "f:data": { ".": {}, "f:greeting": {} }, "f:metadata": { "f:labels": { ".": {}, "f:app.kubernetes.io/name": {} } } },
          },
          {
            manager: "cluster-core-console",
            operation: "Apply",
            time: "2026-11-24T06:01:00Z",
            fieldsType: "FieldsV1",
            fieldsV1: {
              "f:spec": {
                "f:containers": {
                  'k:{"name":"app"}': { ".": {}, "f:image": {}, "f:name": {}, "f:ports": { 'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {} } } },
                },
                "f:finalizers": { 'v:"a"': {} },
                "f:args": { "i:0": {} },
              },
            },
          },
          { manager: "kubelet", operation: "Update", apiVersion: "v1", subresource: "status", fieldsType: "FieldsV1", fieldsV1: { "f:status": { "f:phase": {} } } },
        ],
      },
    });
    expect(rows[0]).toEqual({
      manager: "kubectl-create",
      operation: "Update",
      apiVersion: "v1",
      time: "2026-11-24T06:00:00Z",
      subresource: undefined,
      fields: [".data", ".data.greeting", ".metadata.labels", ".metadata.labels.app.kubernetes.io/name"],
    });
    expect(rows[1].fields).toEqual([
      ".spec.args[0]",
      '.spec.containers[name="app"]',
      '.spec.containers[name="app"].image',
      '.spec.containers[name="app"].name',
      '.spec.containers[name="app"].ports[containerPort=80,protocol="TCP"]',
      '.spec.containers[name="app"].ports[containerPort=80,protocol="TCP"].containerPort',
      '.spec.finalizers[="a"]',
    ]);
    expect(rows[2]).toMatchObject({ manager: "kubelet", subresource: "status", fields: [".status.phase"] });
  });

  it("keeps an entry whose fieldsV1 does not decode, with the reason, and ignores objects without managedFields", () => {
    const rows = managerFields({ metadata: { managedFields: [{ manager: "odd", operation: "Update", fieldsV1: { "f:data": "x" } }] } });
    expect(rows[0].manager).toBe("odd");
    expect(rows[0].fields).toEqual([]);
    expect(rows[0].error).toMatch(/does not decode/);
    expect(managerFields({ metadata: { name: "x" } })).toEqual([]);
    expect(managerFields(undefined)).toEqual([]);
  });
});

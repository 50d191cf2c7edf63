import { describe, expect, it } from "vitest";
import { explainStatusMessage } from "./status-message";

describe("admission refusal messages", () => {
  it("puts each SCC provider's reason on its own line, keeping brackets and commas inside a reason", () => {
    const message =
      'pods "web" is forbidden: unable to validate against any security context constraint: [provider "anyuid": Forbidden: not usable by user or serviceaccount, ' +
      "spec.containers[0].securityContext.runAsUser: Invalid value: 0: must be in the ranges: [1000, 2000], " +
      'provider "restricted-v2": .spec.securityContext.fsGroup: Invalid value: []int64{0, 1}: 0 is not an allowed group]';
    const e = explainStatusMessage(message);
    expect(e.summary).toBe('pods "web" is forbidden: unable to validate against any security context constraint');
    expect(e.reasons).toEqual([
      'provider "anyuid": Forbidden: not usable by user or serviceaccount',
      "spec.containers[0].securityContext.runAsUser: Invalid value: 0: must be in the ranges: [1000, 2000]",
      'provider "restricted-v2": .spec.securityContext.fsGroup: Invalid value: []int64{0, 1}: 0 is not an allowed group',
    ]);
  });

  it("splits a field error list that kube prints with spaces between the errors", () => {
    const e = explainStatusMessage(
      'pods "p" is forbidden: unable to validate against any security context constraint: [provider restricted-v2: .containers[0].runAsUser: Invalid value: 0: must be in the ranges: [1000680000, 1000689999] ' +
        'spec.volumes[1]: Invalid value: "hostPath": hostPath volumes are not allowed to be used]',
    );
    expect(e.reasons).toEqual([
      "provider restricted-v2: .containers[0].runAsUser: Invalid value: 0: must be in the ranges: [1000680000, 1000689999]",
      'spec.volumes[1]: Invalid value: "hostPath": hostPath volumes are not allowed to be used',
    ]);
  });

  it("splits a 422's causes only before each field path, not at the commas of a cause's own message", () => {
    const label =
      "metadata.labels: Invalid value: \"-x-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    const port = "spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive";
    const target = "spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive";
    const e = explainStatusMessage(`Service "bad" is invalid: [${label}, ${port}, ${target}]`);
    expect(e.summary).toBe('Service "bad" is invalid');
    expect(e.reasons).toEqual([label, port, target]);
  });

  it("keeps LimitRanger's 'is X, but limit is Y' reasons whole", () => {
    const e = explainStatusMessage('pods "big" is forbidden: [maximum cpu usage per Container is 500m, but limit is 1, maximum memory usage per Container is 128Mi, but limit is 256Mi]');
    expect(e.summary).toBe('pods "big" is forbidden');
    expect(e.reasons).toEqual(["maximum cpu usage per Container is 500m, but limit is 1", "maximum memory usage per Container is 128Mi, but limit is 256Mi"]);
  });

  it("splits the quota sentence into requested, used and limited", () => {
    const e = explainStatusMessage('pods "p3" is forbidden: exceeded quota: compute, requested: limits.cpu=1,pods=1, used: limits.cpu=2,pods=2, limited: limits.cpu=2,pods=2');
    expect(e.summary).toBe('pods "p3" is forbidden: exceeded quota: compute');
    expect(e.reasons).toEqual(["requested: limits.cpu=1,pods=1", "used: limits.cpu=2,pods=2", "limited: limits.cpu=2,pods=2"]);
  });

  it("leaves one-reason messages and bracketed values that are not a list untouched", () => {
    const single = 'pods "big" is forbidden: maximum cpu usage per Container is 500m, but limit is 1';
    expect(explainStatusMessage(single)).toEqual({ summary: single, reasons: [] });
    const rbac = 'pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "team-a"';
    expect(explainStatusMessage(rbac)).toEqual({ summary: rbac, reasons: [] });
    const value = 'Service "x" is invalid: spec.ports: Invalid value: [80, 81]';
    expect(explainStatusMessage(value).reasons).toEqual([]);
    const oneItem = 'pods "p" is forbidden: unable to validate against any security context constraint: [spec.volumes[0]: Invalid value: "hostPath": hostPath volumes are not allowed to be used]';
    expect(explainStatusMessage(oneItem).reasons).toEqual([]);
  });
});

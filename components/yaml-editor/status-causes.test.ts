import { describe, expect, it } from "vitest";
import { distinctCauses, explainBesideCauses } from "./status-causes";

const bad = { reason: "FieldValueInvalid", field: "metadata.labels", message: 'Invalid value: "-x-": must start and end with an alphanumeric character' };
const key = { reason: "FieldValueInvalid", field: "data[bad key]", message: 'Invalid value: "bad key": a valid config key must consist of alphanumeric characters' };

describe("status causes", () => {
  it("drops a cause repeated in the Status", () => {
    expect(distinctCauses([bad, key, { ...bad }])).toEqual([bad, key]);
  });

  it("keeps only the summary of a 422 whose one cause is listed", () => {
    const message = `ConfigMap "a" is invalid: metadata.labels: ${bad.message}`;
    expect(explainBesideCauses(message, [bad])).toEqual({ summary: 'ConfigMap "a" is invalid', reasons: [] });
  });

  it("does not repeat listed causes as reasons, but keeps a reason no cause says", () => {
    const message = `ConfigMap "a" is invalid: [metadata.labels: ${bad.message}, data[bad key]: ${key.message}]`;
    expect(explainBesideCauses(message, [bad, key])).toEqual({ summary: 'ConfigMap "a" is invalid', reasons: [] });
    expect(explainBesideCauses(message, [bad]).reasons).toEqual([`data[bad key]: ${key.message}`]);
  });

  it("leaves a message without causes as the server split it", () => {
    expect(explainBesideCauses('configmaps "a" is forbidden: exceeded quota: q', []).summary).toBe('configmaps "a" is forbidden: exceeded quota: q');
  });
});

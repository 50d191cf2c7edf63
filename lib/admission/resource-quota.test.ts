import { describe, expect, it } from "vitest";
import { errors } from "../status";
import { kindByPlural, kinds } from "../kinds";
import type { ResourceQuota } from "../kinds/resource-quota";
import { QuotaEvaluators } from "../quota/evaluators";
import type { AdmissionRequest } from "./admission-chain";
import { ResourceQuotaAdmission, type QuotaAccess } from "./resource-quota";

const configMaps = kindByPlural("configmaps")!;
const quota = (rv: string, used: string): ResourceQuota => ({
  apiVersion: "v1", kind: "ResourceQuota", metadata: { name: "q", namespace: "ns", resourceVersion: rv },
  spec: { hard: { configmaps: "2" } }, status: { hard: { configmaps: "2" }, used: { configmaps: used } },
});
const createConfigMap = (name: string, dryRun = false): AdmissionRequest => ({
  operation: "CREATE", kind: configMaps, namespace: "ns", name, subresource: "", dryRun,
  object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "ns" } },
});

/** A store of one quota whose status another writer may move under the plug-in's feet. */
function fakeAccess(initial: ResourceQuota, beforeWrite?: (stored: ResourceQuota) => ResourceQuota | undefined) {
  let stored = initial;
  const writes: ResourceQuota[] = [];
  const access: QuotaAccess = {
    list: () => [stored],
    catchUp: async () => {},
    async updateStatus(q) {
      const moved = beforeWrite?.(stored);
      if (moved) { stored = moved; beforeWrite = undefined; }
      if (q.metadata.resourceVersion !== stored.metadata.resourceVersion) throw errors.conflict("resourcequotas", "q");
      stored = { ...q, metadata: { ...q.metadata, resourceVersion: String(Number(q.metadata.resourceVersion) + 1) } };
      writes.push(stored);
    },
  };
  return { access, writes, stored: () => stored };
}

describe("ResourceQuota admission", () => {
  it("re-evaluates against the newer quota when its charge conflicts, so the last unit is taken once", async () => {
    const { access, writes } = fakeAccess(quota("1", "1"), () => quota("2", "2"));
    const plugin = new ResourceQuotaAdmission(access, new QuotaEvaluators(kinds));
    await expect(plugin.validate(createConfigMap("late"))).rejects.toMatchObject({
      code: 403, message: `configmaps "late" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=2, limited: configmaps=2`,
    });
    expect(writes).toHaveLength(0);
  });

  it("charges once the conflict is resolved when room is left", async () => {
    const { access, stored } = fakeAccess(quota("1", "0"), () => quota("2", "1"));
    await new ResourceQuotaAdmission(access, new QuotaEvaluators(kinds)).validate(createConfigMap("ok"));
    expect(stored().status!.used).toEqual({ configmaps: "2" });
  });

  it("writes nothing for a dry run or a subresource write", async () => {
    const { access, writes } = fakeAccess(quota("1", "0"));
    const plugin = new ResourceQuotaAdmission(access, new QuotaEvaluators(kinds));
    await plugin.validate(createConfigMap("dry", true));
    await plugin.validate({ ...createConfigMap("s"), subresource: "status", operation: "UPDATE" });
    expect(writes).toHaveLength(0);
  });
});

// ResourceQuota (spec 2.7): resource maps merge key by key, `spec.scopes` is atomic.
import { resourceList } from "./container";
import { coreType } from "./names";
import { arr, obj, str } from "./schema";
import { resource } from "./resource";

export const resourceQuotaSchema = resource(
  "ResourceQuota",
  {
    spec: obj(
      {
        hard: resourceList("Hard limit per named resource (pods, requests.cpu, limits.memory, services, ...)."),
        scopes: arr(str(), { description: "Restricts what the quota counts: Terminating, NotTerminating, BestEffort, NotBestEffort." }),
      },
      { name: coreType("ResourceQuotaSpec"), description: "The desired quota." },
    ),
    status: obj(
      {
        hard: resourceList("The enforced hard limits."),
        used: resourceList("Current usage of each limited resource in the namespace."),
      },
      { name: coreType("ResourceQuotaStatus"), description: "The enforced quota and current usage." },
    ),
  },
  { description: "Aggregate resource limits for a namespace." },
);

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
        // Newer than the spec (Kubernetes 1.32):
        scopeSelector: obj(
          {
            matchExpressions: arr(
              obj(
                {
                  operator: str({ description: "In, NotIn, Exists or DoesNotExist." }),
                  scopeName: str({ description: "Scope the requirement applies to, e.g. PriorityClass." }),
                  values: arr(str(), { description: "Values for In and NotIn." }),
                },
                { name: coreType("ScopedResourceSelectorRequirement"), description: "One scope requirement.", required: ["scopeName", "operator"] },
              ),
              { description: "Requirements, ANDed." },
            ),
          },
          { name: coreType("ScopeSelector"), description: "Scopes as selector requirements; ANDed with scopes." },
        ),
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

/** A map of resource name (`cpu`, `memory`, `storage`, `pods`, ...) to a quantity string such as `500m` or `1Gi`. */
export type ResourceList = Record<string, string>;

export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
}

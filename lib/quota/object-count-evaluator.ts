// Quota for kinds quota only counts (kube's generic object count evaluator): `count/<resource>[.<group>]`, and
// for configmaps, secrets, resourcequotas and replicationcontrollers also the older plain name.
import type { KubeObject } from "../kinds/types";
import { objectCountName, type Evaluator, type QuotaOperation, type ScopeRequirement } from "./evaluator";
import { count, type QuantityList } from "./resource-list";

export class ObjectCountEvaluator implements Evaluator {
  private readonly names: string[];

  /**
   * @param groupResource `configmaps`, `roles.rbac.authorization.k8s.io`
   * @param alias the legacy name counted alongside (`configmaps`), if any
   */
  constructor(readonly groupResource: string, private readonly alias?: string) {
    this.names = [objectCountName(groupResource), ...(alias ? [alias] : [])];
  }

  /** Only creates add to a count; deletes are given back by the controller. */
  handles(operation: QuotaOperation): boolean {
    return operation === "CREATE";
  }

  matchingResources(names: string[]): string[] {
    return [...new Set(names.filter((n) => this.names.includes(n)))].sort();
  }

  /** Counted objects fall in no scope, so a quota with scopes never counts them. */
  matchesScope(_requirement: ScopeRequirement, _obj: KubeObject): boolean {
    return false;
  }

  usage(): QuantityList {
    const out: QuantityList = {};
    for (const name of this.names) out[name] = count(1);
    return out;
  }

  constraints(): string | undefined {
    return undefined;
  }
}

// Quota for Services (kube's service evaluator): the count, and the node ports and load balancers a Service
// type asks for. Updates are evaluated too, since a type change (ClusterIP -> NodePort) costs node ports.
import type { Service } from "../kinds/service";
import type { KubeObject } from "../kinds/types";
import { objectCountName, type Evaluator, type QuotaOperation } from "./evaluator";
import { count, zero, type QuantityList } from "./resource-list";

const COUNT = objectCountName("services");
const RESOURCES = [COUNT, "services", "services.nodeports", "services.loadbalancers"];

export class ServiceEvaluator implements Evaluator {
  readonly groupResource = "services";

  handles(operation: QuotaOperation): boolean {
    return operation === "CREATE" || operation === "UPDATE";
  }

  matchingResources(names: string[]): string[] {
    return [...new Set(names.filter((n) => RESOURCES.includes(n)))].sort();
  }

  matchesScope(): boolean {
    return false;
  }

  usage(obj: KubeObject): QuantityList {
    const spec = (obj as Service).spec ?? {};
    const ports = spec.ports ?? [];
    const out: QuantityList = { [COUNT]: count(1), services: count(1), "services.loadbalancers": zero(), "services.nodeports": zero() };
    if (spec.type === "NodePort") out["services.nodeports"] = count(ports.length);
    if (spec.type === "LoadBalancer") {
      // Without node port allocation only the ports that name one explicitly use one.
      const allocate = (spec as { allocateLoadBalancerNodePorts?: boolean }).allocateLoadBalancerNodePorts !== false;
      out["services.nodeports"] = count(allocate ? ports.length : ports.filter((p) => (p.nodePort ?? 0) !== 0).length);
      out["services.loadbalancers"] = count(1);
    }
    return out;
  }

  constraints(): string | undefined {
    return undefined;
  }
}

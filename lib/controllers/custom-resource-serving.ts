// Serves the kinds of Established CustomResourceDefinitions (kube's apiextensions-apiserver crdHandler, which
// builds a CRD's handlers once it is Established and drops them when it goes). Runs in every replica, not only the
// leader: each follows the CRDs in its own watch cache and adds or removes their kinds (lib/kinds'
// `setAddedKinds`), which routing, discovery and the registry read. A rebuilt declaration follows every change of
// an Established CRD (a new version, schema or printer column applies to later requests).
import { setAddedKinds } from "../kinds";
import { customKinds } from "../kinds/custom-kind";
import {
  customResourceDefinition as crdKind, ESTABLISHED, isConditionTrue, TERMINATING, type CustomResourceDefinition,
} from "../kinds/custom-resource-definition";
import type { AnyKind } from "../kinds/types";
import type { ListOptions } from "../registry/options";
import type { Registry } from "../registry/registry";
import { Informer, type InformerSource } from "./informer";
import type { DeleteCustomResources } from "./custom-resource-definitions";

/** Follows the CRDs of `source` and serves each Established one; returns a function that stops and unserves all. */
export function serveCustomResources(source: InformerSource, onError: (err: unknown) => void = () => {}): () => void {
  const served = new Set<string>();
  const informer = new Informer(source, onError);
  informer.on(crdKind.plural, (e) => {
    const crd = e.object as CustomResourceDefinition;
    const name = e.key.name;
    if (e.type === "DELETED" || !isConditionTrue(crd, ESTABLISHED)) {
      if (served.delete(name)) setAddedKinds(name, []);
      return;
    }
    served.add(name);
    setAddedKinds(name, customKinds(crd));
  });
  informer.start();
  return () => {
    informer.stop();
    for (const name of served) setAddedKinds(name, []);
    served.clear();
  };
}

/**
 * The CRD controller's cleanup (kube's deleteInstances): every custom resource of the CRD deleted through the
 * registry, in every namespace; then a check that none is left (finalizers may hold some: the controller retries).
 */
export function deleteCustomResourcesWith(registry: Registry): DeleteCustomResources {
  return async (crd) => {
    const kind: AnyKind | undefined = customKinds(crd)[0];
    if (!kind) return { type: TERMINATING, status: "False", reason: "InstanceDeletionCompleted", message: "removed all instances" };
    const list: ListOptions = {
      labelSelector: "", fieldSelector: "", resourceVersion: "", resourceVersionMatch: "", limit: 0, continueToken: "", watch: false,
      allowWatchBookmarks: false, sendInitialEvents: undefined, timeoutSeconds: undefined,
    };
    try {
      await registry.deleteCollection(kind, undefined, list, { dryRun: false });
      const left = await registry.list(kind, undefined, list);
      if (left.items.length) {
        return { type: TERMINATING, status: "True", reason: "InstanceDeletionCheck", message: `could not confirm zero CustomResources remaining: ${left.items.length} remaining` };
      }
    } catch (err) {
      return { type: TERMINATING, status: "True", reason: "InstanceDeletionFailed", message: `could not list instances: ${err instanceof Error ? err.message : String(err)}` };
    }
    return { type: TERMINATING, status: "False", reason: "InstanceDeletionCompleted", message: "removed all instances" };
  };
}

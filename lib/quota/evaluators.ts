// Which evaluator measures which kind (kube's quota registry plus the quota monitor's discovered resources):
// Pods, Services and PersistentVolumeClaims have their own; every other namespaced kind is counted as
// `count/<resource>[.<group>]`, custom resources included (as kube's admission and quota monitor count any
// resource a quota names); Events are never counted.
import { addedKindsGeneration, addedStoredKinds, storageResourceOf } from "../kinds";
import type { AnyKind } from "../kinds/types";
import type { Evaluator } from "./evaluator";
import { ObjectCountEvaluator } from "./object-count-evaluator";
import { PersistentVolumeClaimEvaluator } from "./persistent-volume-claim-evaluator";
import { PodEvaluator } from "./pod-evaluator";
import { ServiceEvaluator } from "./service-evaluator";

/** Counted under their plain names too, as before `count/*` existed. */
const LEGACY_ALIASES: Record<string, string> = {
  configmaps: "configmaps",
  resourcequotas: "resourcequotas",
  replicationcontrollers: "replicationcontrollers",
  secrets: "secrets",
};

/** kube's default ignored resources. */
const IGNORED = new Set(["events"]);

export const groupResourceOf = (kind: Pick<AnyKind, "plural" | "group">) => (kind.group ? `${kind.plural}.${kind.group}` : kind.plural);

export interface EvaluatorEntry {
  evaluator: Evaluator;
  /** The storage resource whose objects it measures in the watch cache; "" when this server does not serve it. */
  resource: string;
}

export class QuotaEvaluators {
  private byGroupResource = new Map<string, EvaluatorEntry>();
  private byResource = new Map<string, Evaluator>();
  /** The added kinds' generation the tables were built for. */
  private generation = -1;

  /** `kinds`: the declared kinds served; the kinds CustomResourceDefinitions add at run time are counted too. */
  constructor(private readonly kinds: readonly AnyKind[]) {
    this.refresh();
  }

  /** Rebuilds the tables when a CustomResourceDefinition started or stopped serving a kind. */
  private refresh(): void {
    const generation = addedKindsGeneration();
    if (generation === this.generation) return;
    this.generation = generation;
    this.byGroupResource = new Map();
    this.byResource = new Map();
    const special: Evaluator[] = [new PodEvaluator(), new ServiceEvaluator(), new PersistentVolumeClaimEvaluator()];
    for (const e of special) this.byGroupResource.set(e.groupResource, { evaluator: e, resource: "" });
    // A custom kind's objects are stored under `<plural>.<group>` (its storage version's declaration).
    for (const kind of [...this.kinds, ...addedStoredKinds()]) {
      if (!kind.namespaced) continue;
      const gr = groupResourceOf(kind);
      if (IGNORED.has(gr)) continue;
      const resource = storageResourceOf(kind);
      const existing = this.byGroupResource.get(gr);
      if (existing) { existing.resource = resource; continue; }
      this.byGroupResource.set(gr, { evaluator: new ObjectCountEvaluator(gr, LEGACY_ALIASES[gr]), resource });
    }
    // Legacy names are tracked (as zero) even for kinds this server does not serve, as kube tracks them.
    for (const gr of Object.keys(LEGACY_ALIASES)) {
      if (!this.byGroupResource.has(gr)) this.byGroupResource.set(gr, { evaluator: new ObjectCountEvaluator(gr, LEGACY_ALIASES[gr]), resource: "" });
    }
    for (const entry of this.byGroupResource.values()) if (entry.resource) this.byResource.set(entry.resource, entry.evaluator);
  }

  forKind(kind: Pick<AnyKind, "plural" | "group">): Evaluator | undefined {
    this.refresh();
    return this.byGroupResource.get(groupResourceOf(kind))?.evaluator;
  }

  /** The evaluator of the objects stored under `resource` (a storage key's resource) in the watch cache. */
  forResource(resource: string): Evaluator | undefined {
    this.refresh();
    return this.byResource.get(resource);
  }

  entries(): EvaluatorEntry[] {
    this.refresh();
    return [...this.byGroupResource.values()];
  }
}

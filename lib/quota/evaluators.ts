// Which evaluator measures which kind (kube's quota registry plus the quota monitor's discovered resources):
// Pods, Services and PersistentVolumeClaims have their own; every other namespaced kind is counted as
// `count/<resource>[.<group>]`; Events are never counted.
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
  /** The plural whose objects it measures in the watch cache; "" when this server does not serve it. */
  resource: string;
}

export class QuotaEvaluators {
  private readonly byGroupResource = new Map<string, EvaluatorEntry>();
  private readonly byResource = new Map<string, Evaluator>();

  constructor(kinds: readonly AnyKind[]) {
    const special: Evaluator[] = [new PodEvaluator(), new ServiceEvaluator(), new PersistentVolumeClaimEvaluator()];
    for (const e of special) this.byGroupResource.set(e.groupResource, { evaluator: e, resource: "" });
    for (const kind of kinds) {
      if (!kind.namespaced) continue;
      const gr = groupResourceOf(kind);
      if (IGNORED.has(gr)) continue;
      const existing = this.byGroupResource.get(gr);
      if (existing) { existing.resource = kind.plural; continue; }
      this.byGroupResource.set(gr, { evaluator: new ObjectCountEvaluator(gr, LEGACY_ALIASES[gr]), resource: kind.plural });
    }
    // Legacy names are tracked (as zero) even for kinds this server does not serve, as kube tracks them.
    for (const gr of Object.keys(LEGACY_ALIASES)) {
      if (!this.byGroupResource.has(gr)) this.byGroupResource.set(gr, { evaluator: new ObjectCountEvaluator(gr, LEGACY_ALIASES[gr]), resource: "" });
    }
    for (const entry of this.byGroupResource.values()) if (entry.resource) this.byResource.set(entry.resource, entry.evaluator);
  }

  forKind(kind: Pick<AnyKind, "plural" | "group">): Evaluator | undefined {
    return this.byGroupResource.get(groupResourceOf(kind))?.evaluator;
  }

  /** The evaluator of the objects stored under `plural` in the watch cache. */
  forResource(plural: string): Evaluator | undefined {
    return this.byResource.get(plural);
  }

  entries(): EvaluatorEntry[] {
    return [...this.byGroupResource.values()];
  }
}

// OpenShift's namespace SCC allocation controller (cluster-policy-controller): every namespace gets a UID block,
// the matching MCS level and supplemental groups as annotations, which SCC admission needs to default and check
// pods. Allocations live only in those annotations, so the set in use is rebuilt from the namespaces themselves
// after a restart; a namespace keeps the block it has.
import { isStatusError } from "../status";
import type { UserInfo } from "../auth/user-info";
import { namespace as namespaceKind } from "../kinds/namespace";
import type { KubeObject } from "../kinds/types";
import type { Registry } from "../registry/registry";
import {
  MCS_ANNOTATION, mcsLabelForBlock, SUPPLEMENTAL_GROUPS_ANNOTATION, UID_BLOCK_COUNT, UID_RANGE_ANNOTATION, uidBlockAnnotation, uidBlockIndex,
} from "../scc/namespace-ranges";
import type { Informer } from "./informer";
import { WorkQueue } from "./work-queue";

export const NAMESPACE_SCC_ALLOCATION_USER: UserInfo = {
  username: "system:serviceaccount:kube-system:namespace-security-allocation-controller",
  groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
};

const ANNOTATIONS = [UID_RANGE_ANNOTATION, MCS_ANNOTATION, SUPPLEMENTAL_GROUPS_ANNOTATION];

export interface NamespaceSccAllocationOptions {
  registry: Registry;
  informer: Informer;
  onError?: (namespace: string, err: unknown) => void;
}

export class NamespaceSccAllocationController {
  readonly queue: WorkQueue;
  private readonly registry: Registry;
  private readonly informer: Informer;
  /** Blocks this process handed out, until the cache shows them (a write may reach the cache after it returns). */
  private readonly handedOut = new Map<string, number>();

  constructor(opts: NamespaceSccAllocationOptions) {
    this.registry = opts.registry;
    this.informer = opts.informer;
    this.queue = new WorkQueue((name) => this.sync(name), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(namespaceKind.plural, (e) => {
      if (e.type === "DELETED" || complete(e.object)) this.handedOut.delete(e.key.name);
      if (e.type !== "DELETED" && !complete(e.object)) this.queue.add(e.key.name);
    });
  }

  stop(): void {
    this.queue.stop();
  }

  async sync(name: string): Promise<void> {
    const ns = this.informer.get(namespaceKind.plural, "", name);
    if (!ns || ns.metadata.deletionTimestamp || complete(ns)) return;
    const own = uidBlockIndex(ns.metadata.annotations?.[UID_RANGE_ANNOTATION]);
    const block = own ?? this.freeBlock(name);
    if (block === undefined) throw new Error("uid range exceeded");
    try {
      await this.registry.patch(namespaceKind, "", name, (current) => {
        const annotations = { ...current.metadata.annotations };
        if (uidBlockIndex(annotations[UID_RANGE_ANNOTATION]) !== block) annotations[UID_RANGE_ANNOTATION] = uidBlockAnnotation(block);
        annotations[MCS_ANNOTATION] ||= mcsLabelForBlock(block);
        annotations[SUPPLEMENTAL_GROUPS_ANNOTATION] ||= uidBlockAnnotation(block);
        return { ...current, metadata: { ...current.metadata, annotations } };
      }, { dryRun: false, fieldValidation: "Ignore", user: NAMESPACE_SCC_ALLOCATION_USER });
      this.handedOut.set(name, block);
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return; // deleted meanwhile
      throw err;
    }
  }

  /** The lowest block no other namespace holds (the cache includes every write this controller made). */
  private freeBlock(except: string): number | undefined {
    const used = new Set<number>([...this.handedOut].filter(([n]) => n !== except).map(([, b]) => b));
    for (const ns of this.informer.list(namespaceKind.plural)) {
      if (ns.metadata.name === except) continue;
      const i = uidBlockIndex(ns.metadata.annotations?.[UID_RANGE_ANNOTATION]);
      if (i !== undefined) used.add(i);
    }
    for (let i = 0; i < UID_BLOCK_COUNT; i++) if (!used.has(i)) return i;
    return undefined;
  }
}

function complete(ns: KubeObject): boolean {
  const a = ns.metadata.annotations ?? {};
  return ANNOTATIONS.every((k) => !!a[k]);
}

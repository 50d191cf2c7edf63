// apiextensions-apiserver's controllers for CustomResourceDefinitions, in one work queue keyed by CRD name:
// - naming (NamingConditionController): status.acceptedNames and the NamesAccepted condition. A requested name is
//   accepted when it is already this CRD's, or no other CRD of the same group has accepted it (plural, singular and
//   short names share one pool, kind and listKind another); a conflict keeps the old accepted name and reports
//   kube's reason (PluralConflict, SingularConflict, ShortNamesConflict, KindConflict, ListKindConflict) with
//   `"<name>" is already in use`. Established starts False (NotAccepted, or Installing once names are accepted).
//   A change of accepted names re-queues the group's other CRDs (a released name may now be free).
// - establishing (EstablishingController): Established True, InitialNamesAccepted, once NamesAccepted is True.
// - finalizer (CRDFinalizer): a CRD being deleted with the `customresourcecleanup.apiextensions.k8s.io` finalizer gets
//   Terminating True (InstanceDeletionInProgress), its custom resources removed (`deleteCustomResources`, the seam
//   for the next step: none are served yet), Terminating False (InstanceDeletionCompleted, or NeverEstablished), and
//   then loses the finalizer, so the registry removes it.
// kube writes all of this through UpdateStatus (its status strategy lets finalizers change too); here status
// writes go to `/status` and the finalizer is removed by a main-resource update. Writes are pinned to the version
// read (a conflict retries from the newer state) and made as the server itself (kube: its loopback client).
import {
  customResourceDefinition as crdKind, CUSTOM_RESOURCE_CLEANUP_FINALIZER, ESTABLISHED, findCondition, isConditionTrue,
  NAMES_ACCEPTED, setCondition, TERMINATING, type CustomResourceDefinition, type CustomResourceDefinitionCondition,
  type CustomResourceDefinitionNames,
} from "../kinds/custom-resource-definition";
import type { Registry } from "../registry/registry";
import { isStatusError } from "../status";
import type { Informer } from "./informer";
import { WorkQueue } from "./work-queue";

type Condition = Omit<CustomResourceDefinitionCondition, "lastTransitionTime">;

/**
 * Removes every custom resource of `crd` before its definition goes, answering the Terminating condition to record
 * (kube's deleteInstances: InstanceDeletionCompleted "removed all instances", or InstanceDeletionFailed with why).
 * Custom resources are not served yet, so there is nothing to remove; serving them must fill this in (a
 * deletecollection per namespace, then a check that none is left) before a CRD may be deleted for real.
 */
export type DeleteCustomResources = (crd: CustomResourceDefinition) => Promise<Condition>;

export const noCustomResources: DeleteCustomResources = async () =>
  ({ type: TERMINATING, status: "False", reason: "InstanceDeletionCompleted", message: "removed all instances" });

export interface CustomResourceDefinitionControllerOptions {
  registry: Registry;
  informer: Informer;
  deleteCustomResources?: DeleteCustomResources;
  onError?: (name: string, err: unknown) => void;
}

const sameNames = (a: CustomResourceDefinitionNames | undefined, b: CustomResourceDefinitionNames | undefined) =>
  JSON.stringify(normalized(a)) === JSON.stringify(normalized(b));
const normalized = (n: CustomResourceDefinitionNames | undefined) => ({
  plural: n?.plural ?? "", singular: n?.singular ?? "", shortNames: n?.shortNames ?? [], kind: n?.kind ?? "",
  listKind: n?.listKind ?? "", categories: n?.categories ?? [],
});

/** equalToAcceptedOrFresh: the requested name is ours already, or nobody in the group has it. */
function conflict(requested: string | undefined, accepted: string | undefined, used: Set<string>): string | undefined {
  const r = requested ?? "";
  if (r === (accepted ?? "") || !used.has(r)) return undefined;
  return `${JSON.stringify(r)} is already in use`;
}

/**
 * calculateNamesAndConditions: the names to accept and the NamesAccepted and Established conditions, given the
 * accepted names of every CRD in the group (this one's included).
 */
export function calculateNames(crd: CustomResourceDefinition, group: CustomResourceDefinition[]): {
  names: CustomResourceDefinitionNames; namesAccepted: Condition; established: Condition;
} {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of group) {
    const a = other.status?.acceptedNames ?? {};
    for (const n of [a.plural, a.singular, ...(a.shortNames ?? [])]) resources.add(n ?? "");
    kinds.add(a.kind ?? "");
    kinds.add(a.listKind ?? "");
  }
  const requested = crd.spec?.names ?? {};
  const accepted = crd.status?.acceptedNames ?? {};
  const names: CustomResourceDefinitionNames = { ...accepted };
  let namesAccepted: Condition = { type: NAMES_ACCEPTED, status: "Unknown" };
  const fail = (reason: string, message: string) => { namesAccepted = { type: NAMES_ACCEPTED, status: "False", reason, message }; };

  let c = conflict(requested.plural, accepted.plural, resources);
  if (c) fail("PluralConflict", c); else names.plural = requested.plural;
  c = conflict(requested.singular, accepted.singular, resources);
  if (c) fail("SingularConflict", c); else names.singular = requested.singular;
  if (JSON.stringify(requested.shortNames ?? []) !== JSON.stringify(accepted.shortNames ?? [])) {
    const ours = new Set(accepted.shortNames ?? []);
    const found = (requested.shortNames ?? []).filter((s) => !ours.has(s)).map((s) => conflict(s, "", resources)).filter((m) => m !== undefined);
    // utilerrors.NewAggregate: one message alone, several as "[a, b]".
    if (found.length) fail("ShortNamesConflict", found.length === 1 ? found[0] : `[${found.join(", ")}]`);
    else names.shortNames = requested.shortNames;
  }
  c = conflict(requested.kind, accepted.kind, kinds);
  if (c) fail("KindConflict", c); else names.kind = requested.kind;
  c = conflict(requested.listKind, accepted.listKind, kinds);
  if (c) fail("ListKindConflict", c); else names.listKind = requested.listKind;
  names.categories = requested.categories;
  for (const k of Object.keys(names) as (keyof CustomResourceDefinitionNames)[]) if (names[k] === undefined) delete names[k];

  if (namesAccepted.status === "Unknown") namesAccepted = { type: NAMES_ACCEPTED, status: "True", reason: "NoConflicts", message: "no conflicts found" };

  const old = findCondition(crd, ESTABLISHED);
  let established: Condition = old
    ? { type: ESTABLISHED, status: old.status, reason: old.reason, message: old.message }
    : { type: ESTABLISHED, status: "False", reason: "NotAccepted", message: "not all names are accepted" };
  if (established.status !== "True" && namesAccepted.status === "True") {
    established = { type: ESTABLISHED, status: "False", reason: "Installing", message: "the initial names have been accepted" };
  }
  return { names, namesAccepted, established };
}

const sameCondition = (a: Condition, b: CustomResourceDefinitionCondition | undefined) =>
  !!b && a.status === b.status && (a.reason ?? "") === (b.reason ?? "") && (a.message ?? "") === (b.message ?? "");

export class CustomResourceDefinitionController {
  readonly queue: WorkQueue;
  private readonly registry: Registry;
  private readonly informer: Informer;
  private readonly deleteCustomResources: DeleteCustomResources;

  constructor(opts: CustomResourceDefinitionControllerOptions) {
    this.registry = opts.registry;
    this.informer = opts.informer;
    this.deleteCustomResources = opts.deleteCustomResources ?? noCustomResources;
    this.queue = new WorkQueue((name) => this.sync(name), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(crdKind.plural, (e) => {
      this.queue.add(e.key.name);
      const before = e.old as CustomResourceDefinition | undefined;
      const after = e.object as CustomResourceDefinition;
      // A deleted CRD, or one whose accepted names changed, may release names others of its group asked for.
      if (e.type === "DELETED" || (before && !sameNames(before.status?.acceptedNames, after.status?.acceptedNames))) {
        this.requeueGroup(after.spec?.group ?? "", e.key.name);
      }
    });
  }

  stop(): void {
    this.queue.stop();
  }

  private requeueGroup(group: string, except: string): void {
    for (const other of this.crds()) {
      if ((other.spec?.group ?? "") === group && other.metadata.name !== except) this.queue.add(other.metadata.name!);
    }
  }

  private crds(): CustomResourceDefinition[] {
    return this.informer.list(crdKind.plural) as CustomResourceDefinition[];
  }

  async sync(name: string): Promise<void> {
    const crd = this.informer.get(crdKind.plural, "", name) as CustomResourceDefinition | undefined;
    if (!crd) return;
    if (crd.metadata.deletionTimestamp) {
      if (crd.metadata.finalizers?.includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) await this.finalize(crd);
      return;
    }
    if (await this.name(crd)) return; // the write comes back as an event, which establishes
    if (isConditionTrue(crd, NAMES_ACCEPTED) && !isConditionTrue(crd, ESTABLISHED)) {
      const next = structuredClone(crd);
      setCondition(next, { type: ESTABLISHED, status: "True", reason: "InitialNamesAccepted", message: "the initial names have been accepted" });
      await this.writeStatus(next);
    }
  }

  /** The naming pass; true when it wrote. */
  private async name(crd: CustomResourceDefinition): Promise<boolean> {
    const group = this.crds().filter((c) => (c.spec?.group ?? "") === (crd.spec?.group ?? ""));
    const { names, namesAccepted, established } = calculateNames(crd, group);
    if (sameNames(crd.status?.acceptedNames, names) && sameCondition(namesAccepted, findCondition(crd, NAMES_ACCEPTED))) return false;
    const next = structuredClone(crd);
    next.status = { ...next.status, acceptedNames: names };
    setCondition(next, namesAccepted);
    setCondition(next, established);
    await this.writeStatus(next);
    return true;
  }

  /** The finalizer pass (kube's CRDFinalizer.sync). */
  private async finalize(crd: CustomResourceDefinition): Promise<void> {
    let next = structuredClone(crd);
    setCondition(next, { type: TERMINATING, status: "True", reason: "InstanceDeletionInProgress", message: "CustomResource deletion is in progress" });
    next = (await this.writeStatus(next)) ?? next;
    let outcome: Condition;
    if (isConditionTrue(next, ESTABLISHED)) {
      outcome = await this.deleteCustomResources(next);
      if (outcome.status !== "False") {
        setCondition(next, outcome);
        await this.writeStatus(next);
        throw new Error(`custom resources of ${next.metadata.name} not removed: ${outcome.message ?? ""}`);
      }
    } else {
      outcome = { type: TERMINATING, status: "False", reason: "NeverEstablished", message: "resource was never established" };
    }
    setCondition(next, outcome);
    next = (await this.writeStatus(next)) ?? next;
    const finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== CUSTOM_RESOURCE_CLEANUP_FINALIZER);
    await this.write({ ...next, metadata: { ...next.metadata, finalizers } });
  }

  private async writeStatus(crd: CustomResourceDefinition): Promise<CustomResourceDefinition | undefined> {
    return this.write(crd, "status");
  }

  /**
   * Pinned to the version read: a conflict throws and the queue retries from the newer state; gone is done. Answers
   * a copy of what was stored (the registry answers the cache's own object, which must never be changed).
   */
  private async write(crd: CustomResourceDefinition, subresource?: string): Promise<CustomResourceDefinition | undefined> {
    try {
      const answer = await this.registry.update(crdKind, "", crd.metadata.name!, crd, { dryRun: false, fieldValidation: "Ignore", subresource });
      const stored = (answer as { object?: CustomResourceDefinition }).object;
      return stored && structuredClone(stored);
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return undefined;
      throw err;
    }
  }
}

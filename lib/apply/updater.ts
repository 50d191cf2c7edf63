// Field ownership through a write (SMD's merge.Updater). `update` records a non-apply write: whoever owned a
// field the write changed loses it, and the writer gains every field it added or changed. `apply` merges an
// applier's configuration: the applier owns exactly what it applies; fields it applied last time and no
// longer applies are removed unless another manager owns them; a changed field another manager owns is a
// conflict unless forced, and forcing takes it from them.
import type { Schema } from "../kinds/schema/schema";
import { deepEqual } from "../validation/generation";
import { compare, type Comparison } from "./compare";
import { FieldSet } from "./field-set";
import { merge } from "./merge";
import type { Path } from "./path-element";
import { ensureNamedFieldsAreMembers, removeItems } from "./remove-items";
import { fieldSetOf } from "./to-field-set";

export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  /** True for an Apply entry. */
  readonly applied: boolean;
}

/** Manager identifier (lib/apply/managed-fields.ts) → the fields it owns. */
export type ManagedSets = Map<string, VersionedSet>;

export interface Conflict {
  manager: string;
  path: Path;
}

/** Apply would change fields other managers own. */
export class ConflictsError extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super(`${conflicts.length} conflicts`);
  }
}

export interface UpdaterOptions {
  schema: Schema | undefined;
  apiVersion: string;
  /** Fields nobody comes to own through this endpoint (the status of a main resource, the spec of /status). */
  ignored?: FieldSet;
}

const filter = (set: FieldSet, ignored: FieldSet | undefined) => (ignored ? set.recursiveDifference(ignored) : set);

function changes(live: unknown, next: unknown, opts: UpdaterOptions): Comparison {
  const c = compare(live, next, opts.schema);
  return { added: filter(c.added, opts.ignored), modified: filter(c.modified, opts.ignored), removed: filter(c.removed, opts.ignored) };
}

/**
 * Ownership after `workflow` turned `live` into `next`: other managers lose fields it changed (or, without
 * `force`, that is a conflict) and everyone loses fields that went away. Returns the comparison too.
 */
function reassign(live: unknown, next: unknown, managers: ManagedSets, workflow: string, force: boolean, opts: UpdaterOptions): Comparison {
  const c = changes(live, next, opts);
  const changed = c.modified.union(c.added);
  const conflicts = new Map<string, FieldSet>();
  for (const [manager, vs] of managers) {
    if (manager === workflow) continue;
    const conflict = vs.set.intersection(changed);
    if (!conflict.isEmpty()) conflicts.set(manager, conflict);
  }
  if (!force && conflicts.size) {
    const list: Conflict[] = [];
    for (const manager of [...conflicts.keys()].sort()) {
      for (const path of conflicts.get(manager)!.paths()) list.push({ manager, path });
    }
    throw new ConflictsError(list);
  }
  for (const [manager, vs] of [...managers]) {
    if (manager === workflow) continue;
    let set = vs.set;
    const conflict = conflicts.get(manager);
    if (conflict) set = set.difference(conflict);
    if (!c.removed.isEmpty()) set = set.difference(c.removed);
    if (set.isEmpty()) managers.delete(manager);
    else if (set !== vs.set) managers.set(manager, { ...vs, set });
  }
  return c;
}

/** Ownership after a non-apply write by `manager` (an update, a patch, a create from an empty object). */
export function update(live: unknown, next: unknown, managers: ManagedSets, manager: string, opts: UpdaterOptions): ManagedSets {
  const out = new Map(managers);
  const c = reassign(live, next, out, manager, true, opts);
  const previous = out.get(manager)?.set ?? new FieldSet();
  const set = filter(previous.difference(c.removed).union(c.modified).union(c.added), opts.ignored);
  if (set.isEmpty()) out.delete(manager);
  else out.set(manager, { set, apiVersion: opts.apiVersion, applied: false });
  return out;
}

export interface ApplyResult {
  /** The merged object, or undefined when applying changed nothing. */
  object: unknown;
  managers: ManagedSets;
}

/** Apply `config` as `manager` over `live`. Throws ConflictsError unless `force`. */
export function apply(live: unknown, config: unknown, managers: ManagedSets, manager: string, force: boolean, opts: UpdaterOptions): ApplyResult {
  const out = new Map(managers);
  const merged = merge(live, config, opts.schema);
  const lastSet = out.get(manager);
  const set = filter(fieldSetOf(config, opts.schema), opts.ignored);
  out.set(manager, { set, apiVersion: opts.apiVersion, applied: true });
  const pruned = prune(merged, out, lastSet, opts.schema);
  reassign(live, pruned, out, manager, force, opts);
  if (out.get(manager)?.set.isEmpty()) out.delete(manager);
  return { object: deepEqual(live, pruned) ? undefined : pruned, managers: out };
}

/**
 * Removes what `manager` applied last time and no longer applies, unless another manager (or this apply)
 * owns it; fields it never owned stay.
 */
function prune(merged: unknown, managers: ManagedSets, lastSet: VersionedSet | undefined, schema: Schema | undefined): unknown {
  if (!lastSet || lastSet.set.isEmpty()) return merged;
  const named = (s: FieldSet) => ensureNamedFieldsAreMembers(s, schema);
  let pruned = removeItems(merged, named(lastSet.set), schema);
  // Add back what anyone (this applier's new configuration included) owns.
  let owned = new FieldSet();
  for (const vs of managers.values()) owned = owned.union(vs.set);
  const mergedSet = named(fieldSetOf(merged, schema));
  pruned = removeItems(merged, mergedSet.difference(named(fieldSetOf(pruned, schema)).union(named(owned))), schema);
  // Remove only what this applier used to own.
  const removed = mergedSet.difference(named(fieldSetOf(pruned, schema))).intersection(named(lastSet.set));
  return removeItems(merged, removed, schema);
}

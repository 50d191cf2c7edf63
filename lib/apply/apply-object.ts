// Server-side apply through the registry: the one entry point for a PATCH with
// `application/apply-patch+yaml` and for any caller holding an object and a manager name (the console's
// editor, later). Applies to the stored object inside the registry's guaranteed-update loop, or, when there
// is none, creates the object from the configuration applied to an empty one (201), as kube's patch handler
// does with `forceAllowCreate`. The managedFields the apply computed are stored through `WriteOptions.track`.
import { errors, isStatusError } from "../status";
import { groupResource } from "../kinds";
import type { AnyKind, KubeObject } from "../kinds/types";
import type { WriteOptions } from "../registry/options";
import type { Answer, Registry } from "../registry/registry";
import { applyConfiguration, setManagedFields } from "./field-manager";
import type { ManagedFieldsEntry } from "./managed-fields";

export interface ApplyObjectOptions extends WriteOptions {
  /** The field manager recorded for the apply (required by the API; `unknown` if empty). */
  manager: string;
  force?: boolean;
  /** "" or undefined: the object itself; "status": its status subresource (which never creates). */
  subresource?: string;
  /** Runs after each successful merge, before anything is stored (the strict YAML checks of the request). */
  afterApply?: () => void;
}

const MAX_CREATE_RACES = 3;
const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export async function applyObject(reg: Registry, kind: AnyKind, namespace: string, name: string, config: unknown, opts: ApplyObjectOptions): Promise<Answer> {
  const { manager, force = false, subresource = "", afterApply, ...writeOptions } = opts;
  const scope = { kind, subresource };
  let managedFields: ManagedFieldsEntry[] | undefined;
  const track = (obj: KubeObject) => setManagedFields(obj, managedFields);
  for (let attempt = 1; ; attempt++) {
    try {
      return await reg.patch(kind, namespace, name, (current) => {
        const outcome = applyConfiguration(scope, current, config, manager, force);
        afterApply?.();
        managedFields = outcome.managedFields;
        return outcome.object;
      }, { ...writeOptions, subresource: subresource || undefined, track });
    } catch (err) {
      if (subresource || !isMissing(err, kind, name)) throw err;
    }
    const outcome = applyConfiguration(scope, undefined, config, manager, force);
    afterApply?.();
    managedFields = outcome.managedFields;
    const obj = outcome.object;
    const uid = isMap(config) && isMap(config.metadata) ? config.metadata.uid : undefined;
    if (typeof uid === "string" && uid !== "") {
      throw errors.conflict(groupResource(kind), name, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
    }
    if (obj.metadata.name !== name) {
      throw errors.badRequest(`the name of the object (${obj.metadata.name ?? ""}) does not match the name on the URL (${name})`);
    }
    try {
      return await reg.create(kind, kind.namespaced ? namespace : undefined, obj, { ...writeOptions, track });
    } catch (err) {
      // Created by someone else in between: apply to theirs.
      if (!(isStatusError(err) && err.reason === "AlreadyExists") || attempt >= MAX_CREATE_RACES) throw err;
    }
  }
}

function isMissing(err: unknown, kind: AnyKind, name: string): boolean {
  if (!isStatusError(err) || err.code !== 404 || err.details?.name !== name) return false;
  const [resource, ...group] = groupResource(kind).split(".");
  return err.details.kind === resource && (err.details.group ?? "") === group.join(".");
}

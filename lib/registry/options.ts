// Query and body options of the verbs (ListOptions, DeleteOptions, dryRun, fieldValidation), validated with
// kube-apiserver's messages.
import { errors, field, type FieldError } from "../status";
import type { UserInfo } from "../auth/user-info";
import type { KubeObject } from "../kinds/types";
import { validateFieldManager } from "../validation/field-manager-name";

export type FieldValidation = "Ignore" | "Warn" | "Strict";

export interface WriteOptions {
  dryRun: boolean;
  fieldValidation: FieldValidation;
  /** Who writes (admission and RBAC escalation checks read it); undefined for the server's own writes. */
  user?: UserInfo;
  /** The `fieldManager` query parameter (validated), when sent. */
  fieldManager?: string;
  /** The `force` query parameter of a server-side apply patch. */
  force?: boolean;
  /**
   * Field-ownership bookkeeping (lib/apply, server-side apply's managedFields): called with the object about
   * to be admitted (defaults applied) and the stored object (undefined on create); what it returns is what
   * the write continues with. Runs again on every attempt of a guaranteed update.
   */
  track?: (obj: KubeObject, old: KubeObject | undefined) => KubeObject;
}

export interface ListOptions {
  labelSelector: string;
  fieldSelector: string;
  limit: number;
  continueToken: string;
  resourceVersion: string;
  resourceVersionMatch: "" | "NotOlderThan" | "Exact";
  watch: boolean;
  allowWatchBookmarks: boolean;
  sendInitialEvents: boolean | undefined;
  timeoutSeconds: number | undefined;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: "Orphan" | "Background" | "Foreground";
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun: boolean;
  user?: UserInfo;
}

const MAX_UINT64 = 2n ** 64n - 1n;

/** A resourceVersion must be a plain unsigned 64-bit integer (Go's strconv.ParseUint), else kube's 400 at once. */
export function checkResourceVersion(rv: string): void {
  if (rv === "") return;
  if (!/^\d+$/.test(rv)) throw errors.badRequest(`invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
  if (BigInt(rv) > MAX_UINT64) throw errors.badRequest(`invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rv)}: value out of range`);
}

const isTrue = (v: string | null) => v !== null && v !== "0" && v.toLowerCase() !== "false";

function parseInteger(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === "") return undefined;
  if (!/^-?\d+$/.test(v)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return Number(v);
}

export type OptionsKind = "CreateOptions" | "UpdateOptions" | "PatchOptions" | "DeleteOptions";

/** Go renders the refused dryRun list as a []string literal. */
const goStringSlice = (values: string[]) => `[]string{${values.map((v) => JSON.stringify(v)).join(", ")}}`;

function parseDryRun(values: string[], optionsKind: OptionsKind): boolean {
  if (values.some((v) => v !== "All")) {
    throw errors.invalidOptions(optionsKind, [{ type: "FieldValueNotSupported", field: "dryRun", detail: `Unsupported value: ${goStringSlice(values)}: supported values: "All"` }]);
  }
  return values.length > 0;
}

/** What the `force` query parameter would be decoded to: undefined when absent (Go's strconv.ParseBool). */
function parseForce(q: URLSearchParams): boolean | undefined {
  const v = q.get("force");
  if (v === null) return undefined;
  if (["1", "t", "T", "true", "TRUE", "True"].includes(v)) return true;
  if (["0", "f", "F", "false", "FALSE", "False"].includes(v)) return false;
  throw errors.badRequest(`strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

/**
 * Create/Update/PatchOptions from the query, checked as kube's ValidateCreateOptions / ValidateUpdateOptions /
 * ValidatePatchOptions (all problems in one 422). `apply` marks a server-side apply patch: it needs a
 * fieldManager, and only it may say `force`.
 */
export function parseWriteOptions(q: URLSearchParams, optionsKind: Exclude<OptionsKind, "DeleteOptions"> = "CreateOptions", apply = false): WriteOptions {
  const fv = q.get("fieldValidation") ?? "";
  const fieldManager = q.get("fieldManager") ?? "";
  const force = optionsKind === "PatchOptions" ? parseForce(q) : undefined;
  const errs: FieldError[] = [];
  if (optionsKind === "PatchOptions" && !apply && force !== undefined) errs.push(field.forbidden("force", "may not be specified for non-apply patch"));
  if (apply && fieldManager === "") errs.push(field.required("fieldManager", "is required for apply patch"));
  errs.push(...validateFieldManager(fieldManager));
  const dryRun = q.getAll("dryRun");
  if (dryRun.some((v) => v !== "All")) {
    errs.push({ type: "FieldValueNotSupported", field: "dryRun", detail: `Unsupported value: ${goStringSlice(dryRun)}: supported values: "All"` });
  }
  if (!["", "Ignore", "Warn", "Strict"].includes(fv)) errs.push(field.notSupported("fieldValidation", fv, ["", "Ignore", "Strict", "Warn"]));
  if (errs.length) throw errors.invalidOptions(optionsKind, errs);
  const opts: WriteOptions = { dryRun: dryRun.length > 0, fieldValidation: (fv || "Warn") as FieldValidation };
  if (fieldManager) opts.fieldManager = fieldManager;
  if (force !== undefined) opts.force = force;
  return opts;
}

export function parseListOptions(q: URLSearchParams, forceWatch = false): ListOptions {
  const rvm = q.get("resourceVersionMatch") ?? "";
  const opts: ListOptions = {
    labelSelector: q.get("labelSelector") ?? "",
    fieldSelector: q.get("fieldSelector") ?? "",
    limit: Math.max(0, parseInteger(q, "limit") ?? 0),
    continueToken: q.get("continue") ?? "",
    resourceVersion: q.get("resourceVersion") ?? "",
    resourceVersionMatch: rvm as ListOptions["resourceVersionMatch"],
    watch: forceWatch || (q.has("watch") && isTrue(q.get("watch"))),
    allowWatchBookmarks: isTrue(q.get("allowWatchBookmarks")),
    sendInitialEvents: q.has("sendInitialEvents") ? isTrue(q.get("sendInitialEvents")) : undefined,
    timeoutSeconds: parseInteger(q, "timeoutSeconds"),
  };
  checkResourceVersion(opts.resourceVersion);
  const errs: FieldError[] = [];
  if (!["", "NotOlderThan", "Exact"].includes(rvm)) errs.push(field.notSupported("resourceVersionMatch", rvm, ["Exact", "NotOlderThan", ""]));
  else if (rvm) {
    if (opts.watch && opts.sendInitialEvents === undefined) {
      errs.push(field.forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
    } else if (!opts.resourceVersion && !opts.watch) {
      errs.push(field.forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden unless resourceVersion is provided"));
    }
    if (opts.continueToken) errs.push(field.forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided"));
    if (rvm === "Exact" && opts.resourceVersion === "0") errs.push(field.forbidden("resourceVersionMatch", `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`));
  }
  if (opts.sendInitialEvents !== undefined) {
    if (!opts.watch) errs.push(field.forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
    else if (rvm !== "NotOlderThan") errs.push(field.forbidden("resourceVersionMatch", "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
  }
  if (errs.length) throw errors.invalidOptions("ListOptions", errs);
  if (opts.continueToken && opts.resourceVersion !== "" && opts.resourceVersion !== "0") {
    throw errors.badRequest("specifying resource version is not allowed when using continue");
  }
  return opts;
}

const POLICIES = ["Orphan", "Background", "Foreground"] as const;

/** DeleteOptions from a JSON body (which wins, as in kube-apiserver) or from the query. */
export function parseDeleteOptions(q: URLSearchParams, body: Record<string, unknown> | undefined): DeleteOptions {
  let opts: DeleteOptions;
  if (body) {
    if (body.kind !== undefined && body.kind !== "DeleteOptions") {
      throw errors.badRequest(`${String(body.kind)} in version "${String(body.apiVersion ?? "v1")}" cannot be handled as a DeleteOptions: no kind "${String(body.kind)}" is registered`);
    }
    const dry = body.dryRun;
    opts = {
      gracePeriodSeconds: body.gracePeriodSeconds === null ? undefined : body.gracePeriodSeconds as number | undefined,
      propagationPolicy: (body.propagationPolicy ?? undefined) as DeleteOptions["propagationPolicy"],
      orphanDependents: (body.orphanDependents ?? undefined) as boolean | undefined,
      preconditions: (body.preconditions ?? undefined) as DeleteOptions["preconditions"],
      dryRun: parseDryRun(Array.isArray(dry) ? dry.map(String) : [], "DeleteOptions"),
    };
    if (opts.gracePeriodSeconds !== undefined && (typeof opts.gracePeriodSeconds !== "number" || !Number.isInteger(opts.gracePeriodSeconds))) {
      throw errors.badRequest(`DeleteOptions in version "v1" cannot be handled as a DeleteOptions: json: cannot unmarshal ${typeof opts.gracePeriodSeconds} into Go struct field DeleteOptions.gracePeriodSeconds of type int64`);
    }
  } else {
    const orphan = q.get("orphanDependents");
    opts = {
      gracePeriodSeconds: parseInteger(q, "gracePeriodSeconds"),
      propagationPolicy: (q.get("propagationPolicy") || undefined) as DeleteOptions["propagationPolicy"],
      orphanDependents: orphan === null || orphan === "" ? undefined : isTrue(orphan),
      dryRun: parseDryRun(q.getAll("dryRun"), "DeleteOptions"),
    };
  }
  const errs: FieldError[] = [];
  if (opts.gracePeriodSeconds !== undefined && opts.gracePeriodSeconds < 0) {
    errs.push(field.invalid("gracePeriodSeconds", opts.gracePeriodSeconds, "must be greater than or equal to 0"));
  }
  if (opts.propagationPolicy !== undefined && !POLICIES.includes(opts.propagationPolicy)) {
    errs.push(field.notSupported("propagationPolicy", opts.propagationPolicy, ["Foreground", "Background", "Orphan", "nil"]));
  }
  if (opts.orphanDependents !== undefined && opts.propagationPolicy !== undefined) {
    errs.push(field.invalid("propagationPolicy", opts.propagationPolicy, "orphanDependents and deletionPropagation cannot be both set"));
  }
  if (errs.length) throw errors.invalidOptions("DeleteOptions", errs);
  return opts;
}

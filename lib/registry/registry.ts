// The generic registry: every verb for every kind, driven by the kind's declaration (lib/kinds). It never
// names a kind. Write phases, in order (kube-apiserver's BeforeCreate / Store.Update):
//   create: type meta -> namespace -> decodeError -> system metadata -> generateName -> applyDefaults ->
//           managedFields (opts.track) -> mutating admission -> prepareForCreate (generation 1 if the kind keeps
//           one) -> validate (metadata + kind) -> validating admission -> canonicalize -> commit without selfLink
//           (retry generateName)
//   update: type meta -> namespace/name match -> read current -> resourceVersion rule -> carry system
//           metadata and status (or only status for /status, or what a subresource strategy lets change) ->
//           applyDefaults -> managedFields (opts.track) -> mutating admission -> generation carried ->
//           prepareForUpdate -> validate + validateUpdate -> validating admission -> canonicalize -> generation
//           bumped (kinds that keep one) -> no-op check -> commit without selfLink (guaranteed-update retry)
//   delete: options -> preconditions -> validating admission -> kind deletion (Namespace) / finalizers /
//           grace period -> commit
import { randomUUID } from "node:crypto";
import { errors, goQuote, isStatusError, StatusError, type FieldError, type Status } from "../status";
import type { AnyKind, KubeObject, ObjectMeta } from "../kinds/types";
import { acceptedApiVersions, apiVersionOf, groupResource, kindByStorageResource, storageResourceOf, versionOf } from "../kinds";
import { AdmissionChain, type AdmissionRequest } from "../admission/admission-chain";
import { ExpiredError, type LogEvent, type ObjectKey, type Store, type StoredObject, type WatchSink, type WatchSpec } from "../storage";
import { pruneEmptyCollections } from "../kinds/schema/shape";
import { deepEqual, nextGeneration } from "../validation/generation";
import { validateObjectMeta, validateObjectMetaUpdate } from "../validation/object-meta";
import { decodeContinue, encodeContinue } from "./continue-token";
import { compileFilter } from "./object-filter";
import {
  beginDeletion, checkPreconditions, finalizersForGarbageCollection, markAsDeleting, namespaceFinalizersForGarbageCollection, toTimestamp,
} from "./deletion";
import { checkResourceVersion, type DeleteOptions, type ListOptions, type WriteOptions } from "./options";

/** What a verb answers: an object (with its serialisation when already known) or a list. */
export type Answer =
  /** `stored`: the store's own object the answer is (its encodings can be kept with it). */
  /** `warnings`: what the kind's strategy asked to answer as Warning headers (ratcheted CEL rule failures). */
  | { code: number; object: unknown; json?: string; stored?: StoredObject; warnings?: string[] }
  | { code: 200; list: ListAnswer };

/**
 * An answer that is the cache's stored object. The cache parses an object when it is read (lib/storage): a JSON
 * answer sends `json` and never reads `object`. A class (its getter on the prototype, not a literal's accessor
 * made per request): spread it and `object` is not copied, so set it (as objectResponse does).
 */
class StoredAnswer {
  readonly code = 200;
  readonly json: string;

  constructor(readonly stored: StoredObject) {
    this.json = stored.json;
  }

  get object(): KubeObject {
    return this.stored.object;
  }
}

export interface ListAnswer {
  kind: AnyKind;
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
  items: StoredObject[];
}

const GENERATE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
const MAX_GENERATE_ATTEMPTS = 8;
const MAX_UPDATE_ATTEMPTS = 16;
/** How long an object marked for immediate deletion may stay before the server removes it itself. */
const LEFTOVER_DELETION_DELAY_MS = 5_000;
const TOO_OLD_LIST = "The resourceVersion for the provided list is too old.";
const TOO_OLD_CONTINUE = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

const clone = <T>(v: T): T => structuredClone(v);

/** Who a write is recorded as in the object history (lib/storage): the request's user, none for the server's own writes. */
const writer = (user: WriteOptions["user"]) => (user ? { username: user.username, groups: user.groups } : undefined);

/**
 * The object as storage keeps it: never a selfLink (kube's storage versioner clears it before every write, so a
 * client's is dropped). A dry run answers before storage, with what the client sent, as kube's does.
 */
function forStorage(obj: KubeObject): KubeObject {
  if (obj.metadata.selfLink === undefined) return obj;
  const { selfLink: _, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function generateName(prefix: string): string {
  let suffix = "";
  for (let i = 0; i < 5; i++) suffix += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)];
  return prefix.slice(0, 58) + suffix;
}

/** Refuse bodies that are not a `kind` object of a version serving it; fill kind/apiVersion when omitted. */
function checkTypeMeta(kind: AnyKind, body: unknown): KubeObject {
  const version = apiVersionOf(kind);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw errors.badRequest(`the object provided is unrecognized (must be of type ${kind.kind}): couldn't get version/kind; json parse error: cannot unmarshal ${Array.isArray(body) ? "array" : typeof body} into Go value of type struct`);
  }
  const obj = body as Record<string, unknown>;
  if (obj.apiVersion !== undefined && obj.apiVersion !== "" && !acceptedApiVersions(kind).includes(obj.apiVersion as string)) {
    if (obj.kind !== undefined && obj.kind !== kind.kind) {
      throw errors.badRequest(`${String(obj.kind)} in version "${String(obj.apiVersion)}" cannot be handled as a ${kind.kind}: no kind "${String(obj.kind)}" is registered for version "${String(obj.apiVersion)}" in scheme "pkg/api/legacyscheme/scheme.go:30"`);
    }
    throw errors.badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${version})`);
  }
  const internal = kind.group ? kind.group.split(".")[0] : "core";
  if (obj.kind !== undefined && obj.kind !== "" && obj.kind !== kind.kind) {
    throw errors.badRequest(`${String(obj.kind)} in version "${versionOf(kind)}" cannot be handled as a ${kind.kind}: converting (${versionOf(kind)}.${String(obj.kind)}) to (${internal}.${kind.kind}): unknown conversion`);
  }
  if (obj.metadata !== undefined && (typeof obj.metadata !== "object" || obj.metadata === null || Array.isArray(obj.metadata))) {
    throw errors.badRequest(`${kind.kind} in version "${versionOf(kind)}" cannot be handled as a ${kind.kind}: json: cannot unmarshal ${typeof obj.metadata} into Go struct field ${kind.kind}.metadata of type v1.ObjectMeta`);
  }
  const decodeError = kind.decodeError?.(obj as KubeObject);
  if (decodeError) throw errors.badRequest(`${kind.kind} in version "v1" cannot be handled as a ${kind.kind}: ${decodeError}`);
  // Stored with the declared kind's apiVersion whichever group the body came through (lib/api answers in the request's).
  // kind, apiVersion and metadata lead, as in kube's Go types, whatever order the client (or a controller) wrote them:
  // the stored serialisation is the one answered, so it would otherwise differ byte for byte from kube-apiserver's.
  const { kind: _k, apiVersion: _v, metadata, ...rest } = obj;
  return { kind: kind.kind, apiVersion: apiVersionOf(kind.servedFrom ?? kind), metadata: { ...(metadata as ObjectMeta | undefined) }, ...rest };
}

/** The stored form: the kind's own normalisation, then empty lists and maps left out as Go's omitempty does. */
function canonicalize(kind: AnyKind, obj: KubeObject): void {
  kind.canonicalize?.(obj);
  if (kind.schema) pruneEmptyCollections(obj, kind.schema);
}

type DeletionPlan =
  | { type: "delete" } | { type: "pending" } | { type: "unchanged" }
  | { type: "update"; object: KubeObject } | { type: "update-then-delete"; object: KubeObject };

function throwIfInvalid(kind: AnyKind, name: string, errs: FieldError[]): void {
  if (errs.length) throw errors.invalid(kind.kind, name, errs, kind.group || undefined);
}

export interface RegistryOptions {
  /**
   * Every write passes through it (none by default). A function when plug-ins write through the registry
   * themselves (quota status): it is given the registry being built.
   */
  admission?: AdmissionChain | ((registry: Registry) => AdmissionChain);
}

export class Registry {
  /** Pending graceful deletions, finished when their deletionTimestamp passes. */
  private readonly graceTimers = new Map<string, NodeJS.Timeout>();
  private readonly kindsByPlural: Map<string, AnyKind>;
  /** The start's pass over every object for deletions left running (findDeletions), while in progress. */
  private deletionScan?: NodeJS.Immediate;
  private closed = false;

  /** Every write passes through it. */
  readonly admission: AdmissionChain;

  constructor(readonly store: Store, kinds: AnyKind[], options: RegistryOptions = {}) {
    this.kindsByPlural = new Map(kinds.map((k) => [storageResourceOf(k), k]));
    this.admission = typeof options.admission === "function" ? options.admission(this) : options.admission ?? new AdmissionChain();
    store.objects.listeners.add((e) => this.trackDeletion(e.type, e));
    this.findDeletions([...store.objects.allObjects()], 0);
  }

  close(): void {
    this.closed = true;
    if (this.deletionScan) clearImmediate(this.deletionScan);
    for (const t of this.graceTimers.values()) clearTimeout(t);
    this.graceTimers.clear();
  }

  /**
   * The deletions a previous process left running (a restart within a grace period), found among the objects
   * at start in slices that yield to the event loop: at 150,000 objects one pass over their JSON took most
   * of a second before the server could answer. A later state of an object went through the listener.
   */
  private findDeletions(objects: StoredObject[], from: number): void {
    this.deletionScan = undefined;
    const end = performance.now() + 10;
    for (let i = from; i < objects.length && !this.closed; i++) {
      const o = objects[i];
      if (o.json.includes('"deletionTimestamp"') && this.store.objects.get(o.key) === o) this.trackDeletion("MODIFIED", o);
      if ((i & 255) === 255 && performance.now() >= end) {
        this.deletionScan = setImmediate(() => this.findDeletions(objects, i + 1));
        return;
      }
    }
  }

  /** kube's NamespaceKeyFunc / NoNamespaceKeyFunc: a name that cannot be one path segment of the key is a 400. */
  private key(kind: AnyKind, namespace: string, name: string): ObjectKey {
    if (name === "." || name === ".." || name.includes("/") || name.includes("%")) {
      const invalid = name === "." || name === ".." ? [`may not be '${name}'`]
        : ["/", "%"].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
      throw errors.badRequest(`Name parameter invalid: ${goQuote(name)}: ${invalid.join(";")}`);
    }
    return { resource: storageResourceOf(kind), namespace: kind.namespaced ? namespace : "", name };
  }

  // --- read -------------------------------------------------------------------------------------------

  async get(kind: AnyKind, namespace: string, name: string, resourceVersion = ""): Promise<Answer> {
    checkResourceVersion(resourceVersion);
    if (resourceVersion === "") await this.store.objects.catchUp();
    else if (resourceVersion !== "0") await this.waitForRevision(Number(resourceVersion));
    return this.found(kind, namespace, name);
  }

  /**
   * `get`, answered synchronously when the cache can answer at once (a consistent read nobody else's commit
   * made stale, or resourceVersion=0), else get's promise: the GET endpoint's common case costs no promise.
   */
  read(kind: AnyKind, namespace: string, name: string, resourceVersion = ""): Answer | Promise<Answer> {
    if (resourceVersion === "0" || (resourceVersion === "" && this.store.objects.current())) return this.found(kind, namespace, name);
    return this.get(kind, namespace, name, resourceVersion);
  }

  private found(kind: AnyKind, namespace: string, name: string): Answer {
    const found = this.store.objects.get(this.key(kind, namespace, name));
    if (!found) throw errors.notFound(groupResource(kind), name);
    return new StoredAnswer(found);
  }

  private async waitForRevision(rev: number): Promise<void> {
    if (!(await this.store.objects.waitFor(rev, 3000))) {
      throw errors.timeout(`Timeout: Too large resource version: ${rev}, current: ${this.store.objects.rev}`,
        { causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version", field: "" }], retryAfterSeconds: 1 });
    }
  }

  async list(kind: AnyKind, namespace: string | undefined, opts: ListOptions): Promise<ListAnswer> {
    const filter = compileFilter(kind, opts.labelSelector, opts.fieldSelector);
    const cache = this.store.objects;
    const rv = opts.resourceVersion;
    let atRev: number | undefined;
    let after: string | undefined;
    let limit = opts.limit;
    if (opts.continueToken) {
      const token = decodeContinue(opts.continueToken);
      after = token.after;
      if (token.rv > 0) atRev = token.rv;
    } else if (rv === "") {
      await cache.catchUp();
    } else if (rv === "0") {
      limit = 0; // served from the cache whole, as kube-apiserver does
    } else {
      const want = Number(rv);
      const exact = opts.resourceVersionMatch === "Exact" || (opts.resourceVersionMatch === "" && limit > 0);
      await this.waitForRevision(want);
      if (exact) atRev = want;
    }
    if (atRev !== undefined && atRev > cache.rev) await this.waitForRevision(atRev);
    const snapshotRev = atRev ?? cache.rev;
    // A field selector naming one namespace narrows an all-namespaces list.
    const ns = kind.namespaced ? namespace ?? filter.namespace : undefined;
    if (namespace !== undefined && filter.namespace !== undefined && filter.namespace !== namespace) {
      return { kind, resourceVersion: String(snapshotRev), items: [] };
    }
    const items: StoredObject[] = [];
    let remaining: number;
    try {
      remaining = cache.scan(storageResourceOf(kind), { namespace: ns, atRev, startAfter: after }, (c) => {
        if (filter.name !== undefined && c.key.name !== filter.name) return true;
        // A label selector reads the labels the cache keeps, not the whole (parsed on demand) object.
        if (filter.matchesLabels ? !filter.matchesLabels(c.labels ?? c.object.metadata.labels) : !filter.empty && !filter.matches(c.object)) return true;
        items.push(c);
        return !(limit > 0 && items.length === limit);
      });
    } catch (err) {
      if (!(err instanceof ExpiredError)) throw err;
      if (opts.continueToken && after !== undefined) {
        throw errors.gone(TOO_OLD_CONTINUE, { continue: Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv: -1, start: `${after}\u0000` })).toString("base64url") });
      }
      throw errors.gone(TOO_OLD_LIST);
    }
    const answer: ListAnswer = { kind, resourceVersion: String(snapshotRev), items };
    if (limit > 0 && remaining > 0 && items.length === limit) {
      const last = items[items.length - 1];
      answer.continue = encodeContinue(snapshotRev, `${last.key.namespace}/${last.key.name}`);
      if (filter.empty) answer.remainingItemCount = remaining;
    }
    return answer;
  }

  /** How many objects of `kind` are stored and their serialised bytes (what a list of them would touch). */
  size(kind: AnyKind): { objects: number; bytes: number } {
    return this.store.objects.size(storageResourceOf(kind));
  }

  /** Namespaces that hold at least one object, plus "default". */
  namespaces(): string[] {
    const names = new Set(["default"]);
    for (const o of this.store.objects.allObjects()) if (o.key.namespace) names.add(o.key.namespace);
    return [...names].sort();
  }

  // --- watch ------------------------------------------------------------------------------------------

  /** Validate a watch request and return the spec the cache streams from. */
  async prepareWatch(kind: AnyKind, namespace: string | undefined, name: string | undefined, opts: ListOptions): Promise<WatchSpec> {
    const filter = compileFilter(kind, opts.labelSelector, opts.fieldSelector);
    if (name !== undefined && filter.name !== undefined && filter.name !== name) {
      throw errors.badRequest("fieldSelector metadata.name doesn't match requested name");
    }
    const onlyName = name ?? filter.name;
    const onlyNamespace = kind.namespaced ? namespace ?? filter.namespace : undefined;
    const rv = opts.resourceVersion;
    const fromNow = rv === "" || rv === "0";
    let initialState: boolean;
    let sinceRev: number | undefined;
    if (opts.sendInitialEvents !== undefined) {
      initialState = opts.sendInitialEvents;
      if (!fromNow) await this.waitForRevision(Number(rv));
      else if (rv === "" && initialState) await this.store.objects.catchUp();
      if (!initialState) sinceRev = fromNow ? undefined : Number(rv);
    } else {
      initialState = fromNow;
      if (!fromNow) sinceRev = Number(rv);
      if (rv === "") await this.store.objects.catchUp();
    }
    const initialEventsEnd = opts.sendInitialEvents === true || (opts.sendInitialEvents === undefined && fromNow && opts.allowWatchBookmarks);
    return {
      resource: storageResourceOf(kind),
      namespace: onlyNamespace,
      // Methods, not arrow properties: a watcher holds its spec for minutes, and the TypeScript loader names
      // (and so gives property storage to) every closure assigned to a name.
      matches(obj) { return (onlyName === undefined || obj.metadata.name === onlyName) && filter.matches(obj); },
      matchesAll: onlyName === undefined && filter.empty,
      sinceRev,
      initialState,
      initialEventsEnd,
      bookmarks: opts.allowWatchBookmarks,
      endsAfterMs: opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0 ? opts.timeoutSeconds * 1000 : undefined,
      bookmark(rev, end) {
        return JSON.stringify({
          kind: kind.kind, apiVersion: apiVersionOf(kind),
          metadata: { resourceVersion: String(rev), creationTimestamp: null, ...(end ? { annotations: { "k8s.io/initial-events-end": "true" } } : {}) },
        });
      },
      expired(requested, oldest) {
        return JSON.stringify(errors.gone(`too old resource version: ${requested} (${oldest})`).toStatus());
      },
    };
  }

  watch(spec: WatchSpec, sink: WatchSink): () => void {
    return this.store.objects.watch(spec, sink);
  }

  // --- create -----------------------------------------------------------------------------------------

  /** `namespace` undefined = the unscoped create path (the body's namespace, or "default"). */
  async create(kind: AnyKind, namespace: string | undefined, body: unknown, opts: WriteOptions): Promise<Answer> {
    let obj = checkTypeMeta(kind, body);
    let meta = obj.metadata;
    if (kind.namespaced) {
      if (namespace !== undefined && meta.namespace && meta.namespace !== namespace) {
        throw errors.badRequest("the namespace of the provided object does not match the namespace sent on the request");
      }
      meta.namespace = namespace ?? (meta.namespace || "default");
    } else {
      delete meta.namespace;
    }
    if (meta.resourceVersion !== undefined && meta.resourceVersion !== "" && meta.resourceVersion !== "0") {
      throw errors.badRequest("resourceVersion should not be set on objects to be created");
    }
    delete meta.resourceVersion;
    meta.uid = randomUUID();
    meta.creationTimestamp = toTimestamp(Date.now());
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    const generated = !meta.name && !!meta.generateName;
    if (generated) meta.name = generateName(meta.generateName!);
    kind.applyDefaults?.(obj);
    if (opts.track) {
      obj = opts.track(obj, undefined);
      meta = obj.metadata;
    }
    const review: AdmissionRequest = {
      operation: "CREATE", kind, namespace: meta.namespace ?? "", name: meta.name ?? "", subresource: "",
      object: obj, user: opts.user, dryRun: opts.dryRun,
    };
    await this.admission.admit(review);
    // A mutating plug-in may hand back a new object or metadata: what it returns is what gets stored.
    obj = review.object!;
    meta = obj.metadata;
    kind.prepareForCreate?.(obj);
    // A client's generation is kept unless the kind's strategy owns it (kube 1.32's BeforeCreate leaves it).
    if (kind.generation) meta.generation = 1;
    throwIfInvalid(kind, meta.name ?? "", [
      ...validateObjectMeta(meta, { namespaced: kind.namespaced, nameRule: kind.nameRule, genericObjectMeta: kind.genericObjectMeta }),
      ...(kind.validate?.(obj) ?? []),
      ...(kind.validateWithOld?.(obj, undefined) ?? []),
    ]);
    await this.admission.validate(review);
    canonicalize(kind, obj);

    for (let attempt = 1; ; attempt++) {
      const key = this.key(kind, meta.namespace ?? "", meta.name!);
      if (opts.dryRun) {
        const existing = this.store.objects.get(key);
        if (existing) throw errors.alreadyExists(groupResource(kind), meta.name!, !!existing.object.metadata.deletionTimestamp);
        return { code: 201, object: obj };
      }
      const result = await this.store.writer.commit({ type: "create", key, object: forStorage(obj), user: writer(opts.user) });
      if (result.ok) return this.answerWrite(201, result.event);
      if (generated && attempt < MAX_GENERATE_ATTEMPTS) { meta.name = generateName(meta.generateName!); continue; }
      if (generated) throw errors.generateNameExhausted(groupResource(kind), meta.name!);
      await this.store.objects.refresh();
      const existing = this.store.objects.get(key);
      throw errors.alreadyExists(groupResource(kind), meta.name!, !!existing?.object.metadata.deletionTimestamp);
    }
  }

  /** Answer a committed write once the cache has it (so a following read sees it). */
  private async answerWrite(code: number, event: LogEvent): Promise<Answer> {
    await this.store.objects.waitFor(event.rev);
    return { code, object: event.object, json: event.json };
  }

  // --- update and patch -------------------------------------------------------------------------------

  async update(kind: AnyKind, namespace: string, name: string, body: unknown, opts: WriteOptions & { subresource?: string }): Promise<Answer> {
    const obj = checkTypeMeta(kind, body);
    if (kind.namespaced && obj.metadata.namespace && obj.metadata.namespace !== namespace) {
      throw errors.badRequest("the namespace of the provided object does not match the namespace sent on the request");
    }
    if (obj.metadata.name !== name) {
      throw errors.badRequest(`the name of the object (${obj.metadata.name ?? ""}) does not match the name on the URL (${name})`);
    }
    const requestedRv = obj.metadata.resourceVersion || undefined;
    await this.store.objects.catchUp();
    return this.guaranteedUpdate(kind, namespace, name, opts, (current) => {
      if (!current) {
        if (!kind.allowCreateOnUpdate || opts.subresource) throw errors.notFound(groupResource(kind), name);
        return { create: obj };
      }
      if (requestedRv === undefined && !kind.allowUnconditionalUpdate) {
        throw errors.invalid(kind.kind, name, [{ type: "FieldValueInvalid", field: "metadata.resourceVersion", detail: "Invalid value: 0: must be specified for an update" }]);
      }
      if (requestedRv !== undefined && requestedRv !== current.object.metadata.resourceVersion) {
        throw errors.conflict(groupResource(kind), name);
      }
      return { update: clone(obj) };
    }, () => requestedRv !== undefined);
  }

  /**
   * Patch: `apply` turns the current object into the patched body (JSON, merge or strategic merge patch,
   * chosen by the pipeline). A resourceVersion the patch sets is a precondition; otherwise a conflicting
   * concurrent write makes the patch re-apply to the newer object.
   */
  async patch(kind: AnyKind, namespace: string, name: string, apply: (current: KubeObject) => unknown, opts: WriteOptions & { subresource?: string }): Promise<Answer> {
    await this.store.objects.catchUp();
    let pinned = false;
    return this.guaranteedUpdate(kind, namespace, name, opts, (current) => {
      if (!current) throw errors.notFound(groupResource(kind), name);
      const patched = apply(clone(current.object));
      const obj = checkTypeMeta(kind, patched);
      const rv = obj.metadata.resourceVersion;
      if (rv !== undefined && rv !== current.object.metadata.resourceVersion) {
        if (rv === "") delete obj.metadata.resourceVersion;
        else throw errors.conflict(groupResource(kind), name);
      }
      if (obj.metadata.name !== name) {
        throw errors.badRequest(`the name of the object (${obj.metadata.name ?? ""}) does not match the name on the URL (${name})`);
      }
      if (kind.namespaced && obj.metadata.namespace !== namespace) {
        throw errors.badRequest("the namespace of the provided object does not match the namespace sent on the request");
      }
      if (rv !== undefined && rv !== "") pinned = true;
      return { update: obj };
    }, () => pinned);
  }

  private async guaranteedUpdate(
    kind: AnyKind, namespace: string, name: string, opts: WriteOptions & { subresource?: string },
    prepare: (current: StoredObject | undefined) => { create: KubeObject } | { update: KubeObject },
    pinnedToVersion: () => boolean,
  ): Promise<Answer> {
    const key = this.key(kind, namespace, name);
    for (let attempt = 1; ; attempt++) {
      const current = this.store.objects.get(key);
      const step = prepare(current);
      if ("create" in step) {
        const created = await this.create(kind, kind.namespaced ? namespace : undefined, step.create, opts);
        return created;
      }
      const old = current!.object;
      const sub = opts.subresource ?? "";
      let obj = this.mergeForUpdate(kind, step.update, old, sub);
      kind.applyDefaults?.(obj);
      if (opts.track) obj = opts.track(obj, old);
      const review: AdmissionRequest = {
        operation: "UPDATE", kind, namespace: kind.namespaced ? namespace : "", name, subresource: sub,
        object: obj, oldObject: old, user: opts.user, dryRun: opts.dryRun,
      };
      await this.admission.admit(review);
      obj = review.object!;
      // kube's BeforeUpdate: no update, subresource or admission plug-in changes the generation; only the
      // kind's own rule below may.
      if (old.metadata.generation === undefined) delete obj.metadata.generation; else obj.metadata.generation = old.metadata.generation;
      const status = sub === "status";
      const other = sub && !status ? kind.updateSubresources?.[sub] : undefined;
      if (status) kind.statusStrategy?.prepareForUpdate?.(obj, old); else if (!sub) kind.prepareForUpdate?.(obj, old);
      // This attempt's strategy warnings: only the attempt that is kept reports them.
      const warnings: string[] = [];
      const warn = (text: string) => { warnings.push(text); };
      throwIfInvalid(kind, name, [
        ...validateObjectMeta(obj.metadata, { namespaced: kind.namespaced, nameRule: kind.nameRule, genericObjectMeta: kind.genericObjectMeta }),
        ...validateObjectMetaUpdate(obj.metadata, old.metadata),
        ...(status ? kind.statusStrategy?.validateUpdate?.(obj, old, warn) ?? []
          : other ? other.validateUpdate?.(obj, old) ?? []
          : [...(kind.validate?.(obj) ?? []), ...(kind.validateUpdate?.(obj, old) ?? []), ...(kind.validateWithOld?.(obj, old, warn) ?? [])]),
      ]);
      const warned = (answer: Answer): Answer => (warnings.length && "object" in answer ? { ...answer, warnings } : answer);
      await this.admission.validate(review);
      canonicalize(kind, obj);
      if (kind.generation) obj.metadata.generation = nextGeneration(obj, old, old.metadata.generation);
      obj.metadata.resourceVersion = old.metadata.resourceVersion;
      const stored = forStorage(obj);
      // An unchanged object is not written, unless its stored form is stale (encryption key rotation, as kube).
      if (deepEqual(stored, old) && !current!.stale) return warned({ code: 200, object: old, json: current!.json });
      // Removing the last finalizer of an object whose deletion is due completes the deletion.
      const finishes = !!obj.metadata.deletionTimestamp && !(obj.metadata.finalizers?.length)
        && (obj.metadata.deletionGracePeriodSeconds ?? 0) === 0 && !kind.holdsDeletion?.(obj);
      if (opts.dryRun) return warned({ code: 200, object: obj });
      const result = await this.store.writer.commit(finishes
        ? { type: "delete", key, object: stored, expectRev: current!.rev, user: writer(opts.user) }
        : { type: "update", key, object: stored, expectRev: current!.rev, user: writer(opts.user) });
      if (result.ok) return warned(await this.answerWrite(200, result.event));
      if (result.reason === "missing" && !kind.allowCreateOnUpdate) throw errors.notFound(groupResource(kind), name);
      if (pinnedToVersion() || attempt >= MAX_UPDATE_ATTEMPTS) throw errors.conflict(groupResource(kind), name);
      await this.store.objects.refresh();
    }
  }

  /** Carry what a client may not change: system metadata, and status (main resource) or everything but status (/status). */
  private mergeForUpdate(kind: AnyKind, body: KubeObject, old: KubeObject, subresource: string): KubeObject {
    if (subresource === "status") {
      const obj = clone(old);
      if (body.status === undefined) delete obj.status; else obj.status = clone(body.status);
      return obj;
    }
    const strategy = subresource ? kind.updateSubresources?.[subresource] : undefined;
    if (subresource) {
      if (!strategy) throw errors.routeNotFound();
      return strategy.merge(clone(body), clone(old));
    }
    const obj = body;
    const m = obj.metadata, o = old.metadata;
    if (m.uid && m.uid !== o.uid) {
      throw errors.conflict(groupResource(kind), o.name!, `Precondition failed: UID in precondition: ${m.uid}, UID in object meta: ${o.uid}`);
    }
    m.uid = o.uid;
    m.creationTimestamp = o.creationTimestamp;
    // An update can never remove or move a deletion timestamp, nor drop a grace period; setting either is
    // left for validation to refuse (`field is immutable`).
    if (o.deletionTimestamp) m.deletionTimestamp = o.deletionTimestamp;
    if (o.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds == null) m.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
    if (kind.namespaced) m.namespace = o.namespace; else delete m.namespace;
    if (kind.hasStatus) { if (old.status === undefined) delete obj.status; else obj.status = clone(old.status); }
    return obj;
  }

  // --- delete -----------------------------------------------------------------------------------------

  /**
   * kube's Store.Delete: preconditions, validating admission, then one of: nothing to change (a graceful
   * deletion already running), an update (deletionTimestamp, grace period, GC finalizers) that keeps the
   * object, an update followed by the removal (a pod deleted at once: watchers see MODIFIED then DELETED),
   * or the removal. Answers 202 instead of 200 when the object stays and `orphanDependents: false` was asked.
   */
  async delete(kind: AnyKind, namespace: string, name: string, opts: DeleteOptions): Promise<Answer> {
    await this.store.objects.catchUp();
    const key = this.key(kind, namespace, name);
    for (let attempt = 1; ; attempt++) {
      const current = this.store.objects.get(key);
      if (!current) throw errors.notFound(groupResource(kind), name);
      const old = current.object;
      checkPreconditions(kind, old, opts.preconditions);
      await this.admission.validate({
        operation: "DELETE", kind, namespace: kind.namespaced ? namespace : "", name, subresource: "",
        oldObject: old, user: opts.user, dryRun: opts.dryRun,
      });
      const plan = this.planDeletion(kind, old, opts);
      const kept = (object: unknown, json?: string): Answer => ({ code: opts.orphanDependents === false ? 202 : 200, object, json });
      if (plan.type === "pending") return kind.deleteReturns === "object" ? kept(old, current.json) : kept(this.deletedStatus(kind, old));
      if (plan.type === "unchanged") return kept(old, current.json);
      if (opts.dryRun) return plan.type === "delete" ? this.deleteAnswer(kind, old, undefined) : kept(plan.object);
      if (plan.type === "delete") {
        const result = await this.store.writer.commit({ type: "delete", key, object: old, expectRev: current.rev, user: writer(opts.user) });
        if (result.ok) {
          await this.store.objects.waitFor(result.event.rev);
          return this.deleteAnswer(kind, result.event.object, result.event.json);
        }
        if (result.reason === "missing") throw errors.notFound(groupResource(kind), name);
      } else {
        const result = await this.store.writer.commit({ type: "update", key, object: plan.object, expectRev: current.rev, user: writer(opts.user) });
        if (result.ok) {
          await this.store.objects.waitFor(result.event.rev);
          if (plan.type === "update") return kept(result.event.object, result.event.json);
          return this.removeMarked(kind, key, result.event, opts.user);
        }
        if (result.reason === "missing") throw errors.notFound(groupResource(kind), name);
      }
      if (attempt >= MAX_UPDATE_ATTEMPTS) throw errors.conflict(groupResource(kind), name);
      await this.store.objects.refresh();
    }
  }

  /**
   * The second half of an immediate graceful-kind deletion: remove what was just marked. Someone else
   * removing it first is fine (kube ignores that NotFound); a change in between is decided again by a new
   * DELETE of the newer state.
   */
  private async removeMarked(kind: AnyKind, key: ObjectKey, marked: LogEvent, user?: WriteOptions["user"]): Promise<Answer> {
    const result = await this.store.writer.commit({ type: "delete", key, object: marked.object, expectRev: marked.rev, user: writer(user) });
    if (result.ok) {
      await this.store.objects.waitFor(result.event.rev);
      return this.deleteAnswer(kind, result.event.object, result.event.json);
    }
    if (result.reason === "missing") return this.deleteAnswer(kind, marked.object, marked.json);
    await this.store.objects.refresh();
    return this.delete(kind, key.namespace, key.name, { dryRun: false, preconditions: { uid: marked.object.metadata.uid } });
  }

  /** What a DELETE does to `old` (see `delete`); the kind's own deletion (Namespace) comes first. */
  private planDeletion(kind: AnyKind, old: KubeObject, opts: DeleteOptions): DeletionPlan {
    const now = Date.now();
    const obj = clone(old);
    const m = obj.metadata;
    if (kind.beginDeletion) {
      if (!m.deletionTimestamp) {
        m.deletionTimestamp = toTimestamp(now);
        const finalizers = namespaceFinalizersForGarbageCollection(obj, opts);
        if (finalizers) m.finalizers = finalizers;
        const marked = kind.beginDeletion(obj, m.deletionTimestamp);
        if (marked) return { type: "update", object: marked };
      } else if (kind.holdsDeletion?.(old)) {
        throw errors.conflict(groupResource(kind), m.name ?? "", kind.deletionPendingMessage);
      }
    }
    const start = beginDeletion(kind, obj, opts.gracePeriodSeconds, now);
    if (start.pending) return { type: "pending" };
    const finalizers = finalizersForGarbageCollection(obj, opts);
    if (finalizers) {
      if (finalizers.length) m.finalizers = finalizers; else delete m.finalizers;
    }
    const pendingFinalizers = (m.finalizers?.length ?? 0) > 0;
    if (!start.graceful) {
      if (!pendingFinalizers) return { type: "delete" };
      markAsDeleting(obj, now);
      return deepEqual(obj, old) ? { type: "unchanged" } : { type: "update", object: obj };
    }
    if (pendingFinalizers || (m.deletionGracePeriodSeconds ?? 0) > 0) return { type: "update", object: obj };
    return { type: "update-then-delete", object: obj };
  }

  private deleteAnswer(kind: AnyKind, object: KubeObject, json: string | undefined): Answer {
    if (kind.deleteReturns === "object") return { code: 200, object, json };
    return { code: 200, object: this.deletedStatus(kind, object) };
  }

  /** kube's answer for kinds that do not return the deleted object; `details.kind` is the plural. */
  private deletedStatus(kind: AnyKind, object: KubeObject): Status {
    return {
      kind: "Status", apiVersion: "v1", metadata: {}, status: "Success",
      details: { name: object.metadata.name, ...(kind.group ? { group: kind.group } : {}), kind: kind.plural, uid: object.metadata.uid },
    };
  }

  async deleteCollection(kind: AnyKind, namespace: string | undefined, list: ListOptions, opts: DeleteOptions): Promise<Answer> {
    const listed = await this.list(kind, namespace, { ...list, continueToken: "", watch: false });
    for (const item of listed.items) {
      try {
        await this.delete(kind, item.key.namespace, item.key.name, opts);
      } catch (err) {
        if (isStatusError(err) && err.code === 404) continue;
        throw err;
      }
    }
    if (kind.deleteCollectionReturns === "status") {
      return { code: 200, object: { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", details: { kind: kind.plural } } satisfies Status };
    }
    return { code: 200, list: { ...listed, continue: undefined, remainingItemCount: undefined } };
  }

  // --- graceful deletion: the server finishes what a kubelet would --------------------------------------

  /**
   * A running grace period ends with the kubelet's DELETE with grace 0 (the object then goes, or stays for
   * its finalizers with grace 0). An object marked with grace 0 and nothing holding it is what an
   * interrupted deletion leaves: it is removed after a short pause (the deleting request normally does it).
   */
  private trackDeletion(type: LogEvent["type"], e: Pick<LogEvent, "key" | "object" | "json">): void {
    const id = `${e.key.resource}\u0000${e.key.namespace}/${e.key.name}`;
    const existing = this.graceTimers.get(id);
    if (existing) { clearTimeout(existing); this.graceTimers.delete(id); }
    // Most objects are not being deleted: their JSON says so without a parse (the cache parses on demand).
    if (type === "DELETED" || !e.json.includes('"deletionTimestamp"')) return;
    const m = e.object.metadata;
    if (!m.deletionTimestamp) return;
    const kind = this.kindsByPlural.get(e.key.resource) ?? kindByStorageResource(e.key.resource);
    if (!kind || kind.holdsDeletion?.(e.object)) return;
    const grace = m.deletionGracePeriodSeconds ?? 0;
    if (grace <= 0 && m.finalizers?.length) return;
    const wait = grace > 0 ? Math.max(0, Date.parse(m.deletionTimestamp) - Date.now()) : LEFTOVER_DELETION_DELAY_MS;
    const timer = setTimeout(() => {
      this.graceTimers.delete(id);
      void this.delete(kind, e.key.namespace, e.key.name, { gracePeriodSeconds: 0, preconditions: { uid: m.uid }, dryRun: false })
        .catch(() => { /* gone already, recreated, or another process finished it */ });
    }, Math.min(wait, 2 ** 31 - 1));
    timer.unref();
    this.graceTimers.set(id, timer);
  }
}

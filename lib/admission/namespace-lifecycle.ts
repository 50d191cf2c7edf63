// NamespaceLifecycle (kube-apiserver's admission plug-in of that name): nothing is created in a namespace that
// does not exist or is being terminated, nothing is updated in one that does not exist, and the system
// namespaces cannot be deleted. Deletes of namespaced objects always pass, so the namespace controller can empty
// a terminating namespace.
import { errors, StatusError } from "../status";
import type { KubeObject } from "../kinds/types";
import type { AdmissionPlugin, AdmissionRequest } from "./admission-chain";

/** Namespaces kube-apiserver never lets anyone delete. */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(["default", "kube-system", "kube-public"]);

/** After a namespace DELETE, how long a cached Active phase is not trusted without catching up first (kube's TTL). */
const FORCE_LIVE_LOOKUP_MS = 30_000;

/** Creating these reveals nothing about a namespace, so they are never refused (kube: access reviews). */
const ACCESS_REVIEWS = new Set(["localsubjectaccessreviews.authorization.k8s.io"]);

const isNamespaceKind = (req: AdmissionRequest) => req.kind.kind === "Namespace" && !req.kind.group;
const groupResource = (req: AdmissionRequest) => (req.kind.group ? `${req.kind.plural}.${req.kind.group}` : req.kind.plural);
const phaseOf = (ns: KubeObject) => (ns.status as { phase?: string } | undefined)?.phase;

export type NamespaceLookup = (name: string) => KubeObject | undefined;

export class NamespaceLifecycle implements AdmissionPlugin {
  readonly name = "NamespaceLifecycle";
  /** Namespaces deleted recently, until when their cached state must be re-read. */
  private readonly forceLiveLookup = new Map<string, number>();

  /**
   * @param lookup the namespace as the server's cache holds it (undefined when it does not exist)
   * @param catchUp brings the cache up to the latest committed write, for a consistent second look
   */
  constructor(
    private readonly lookup: NamespaceLookup,
    private readonly catchUp: () => Promise<void> = async () => {},
    private readonly now: () => number = Date.now,
  ) {}

  async admit(req: AdmissionRequest): Promise<void> {
    if (req.operation === "DELETE") return;
    if (isNamespaceKind(req) || !req.kind.namespaced || !req.namespace) return;
    if (ACCESS_REVIEWS.has(groupResource(req))) return;

    let ns = this.lookup(req.namespace);
    if (!ns || (phaseOf(ns) !== "Terminating" && this.recentlyDeleted(req.namespace))) {
      // The cache may trail a write that just committed (a namespace created, or deleted, a moment ago).
      await this.catchUp();
      ns = this.lookup(req.namespace);
    }
    if (!ns) throw errors.notFound("namespaces", req.namespace);
    if (req.operation === "CREATE" && phaseOf(ns) === "Terminating") throw terminating(req);
  }

  validate(req: AdmissionRequest): void {
    if (req.operation !== "DELETE" || !isNamespaceKind(req)) return;
    if (IMMORTAL_NAMESPACES.has(req.name)) {
      throw errors.forbidden(`namespaces "${req.name}" is forbidden: this namespace may not be deleted`, "namespaces", req.name);
    }
    if (!req.dryRun) this.forceLiveLookup.set(req.name, this.now() + FORCE_LIVE_LOOKUP_MS);
  }

  private recentlyDeleted(name: string): boolean {
    const until = this.forceLiveLookup.get(name);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.forceLiveLookup.delete(name);
    return false;
  }
}

/** admission.NewForbidden plus the NamespaceTerminating cause kube-apiserver appends. */
function terminating(req: AdmissionRequest): StatusError {
  const meta = req.object?.metadata;
  const name = req.name || meta?.name || meta?.generateName || "Unknown";
  const resource = groupResource(req);
  const base = errors.forbidden(
    `${resource} "${name}" is forbidden: unable to create new content in namespace ${req.namespace} because it is being terminated`,
    resource, name,
  );
  return new StatusError(403, "Forbidden", base.message, {
    ...base.details,
    causes: [{ reason: "NamespaceTerminating", message: `namespace ${req.namespace} is being terminated`, field: "metadata.namespace" }],
  });
}

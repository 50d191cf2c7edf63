// The admission chain every write passes through (kube-apiserver's admission.Interface): mutating plug-ins
// first, then validating ones, in the order given. The registry calls it; plug-ins never write to storage.
import type { UserInfo } from "../auth/user-info";
import type { AnyKind, KubeObject } from "../kinds/types";

export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE";

export interface AdmissionRequest {
  operation: AdmissionOperation;
  kind: AnyKind;
  /** "" for cluster-scoped kinds. */
  namespace: string;
  name: string;
  /** "" for the main resource; "status", "finalize", ... for subresources. */
  subresource: string;
  /** The object to store (CREATE, UPDATE); mutating plug-ins may change it. */
  object?: KubeObject;
  /** The stored object (UPDATE, DELETE). */
  oldObject?: KubeObject;
  /** Who asks; undefined for the server's own writes (controllers, start-up). */
  user?: UserInfo;
  dryRun: boolean;
}

export interface AdmissionPlugin {
  name: string;
  /** Mutating phase: may change `req.object`. Throw a StatusError to refuse. */
  admit?(req: AdmissionRequest): void | Promise<void>;
  /** Validating phase: must not change anything. Throw a StatusError to refuse. */
  validate?(req: AdmissionRequest): void | Promise<void>;
}

export class AdmissionChain {
  private readonly mutating: AdmissionPlugin[];
  private readonly validating: AdmissionPlugin[];

  constructor(readonly plugins: AdmissionPlugin[] = []) {
    this.mutating = plugins.filter((p) => p.admit);
    this.validating = plugins.filter((p) => p.validate);
  }

  async admit(req: AdmissionRequest): Promise<void> {
    for (const p of this.mutating) await p.admit!(req);
  }

  async validate(req: AdmissionRequest): Promise<void> {
    for (const p of this.validating) await p.validate!(req);
  }
}

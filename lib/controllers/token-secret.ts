// kube-controller-manager's tokens controller: a `kubernetes.io/service-account-token` Secret annotated with
// `kubernetes.io/service-account.name` gets `token` (a legacy token signed for that account), `ca.crt` and
// `namespace` filled in, and the account's uid recorded; a Secret whose account is gone (or was recreated
// with another uid) is deleted, and deleting an account deletes its token Secrets.
import { isStatusError } from "../status";
import type { ServiceAccountTokens } from "../auth/service-account-token";
import type { UserInfo } from "../auth/user-info";
import { secret as secretKind } from "../kinds/secret";
import { serviceAccount as serviceAccountKind } from "../kinds/service-account";
import type { KubeObject } from "../kinds/types";
import type { Registry } from "../registry/registry";
import type { Informer } from "./informer";
import { WorkQueue } from "./work-queue";

export const TOKEN_SECRET_TYPE = "kubernetes.io/service-account-token";
export const SA_NAME_ANNOTATION = "kubernetes.io/service-account.name";
export const SA_UID_ANNOTATION = "kubernetes.io/service-account.uid";

export const TOKENS_CONTROLLER_USER: UserInfo = {
  username: "system:serviceaccount:kube-system:tokens-controller",
  groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
};

type Secret = KubeObject & { type?: string; data?: Record<string, string> };

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

export interface TokenSecretControllerOptions {
  registry: Registry;
  informer: Informer;
  tokens: ServiceAccountTokens;
  /** PEM of the cluster CA, put into `ca.crt` (empty when serving plain HTTP). */
  caPem: string;
  onError?: (key: string, err: unknown) => void;
}

export class TokenSecretController {
  readonly queue: WorkQueue;

  constructor(private readonly opts: TokenSecretControllerOptions) {
    this.queue = new WorkQueue((key) => this.sync(key), { onError: opts.onError, waitFor: opts.informer });
    opts.informer.on(secretKind.plural, (e) => {
      const s = e.object as Secret;
      if (e.type !== "DELETED" && s.type === TOKEN_SECRET_TYPE) this.queue.add(`${e.key.namespace}/${e.key.name}`);
    });
    opts.informer.on(serviceAccountKind.plural, (e) => {
      // An account created or recreated: its annotated Secrets may now be fillable, or stale.
      for (const o of opts.informer.list(secretKind.plural, e.key.namespace)) {
        const s = o as Secret;
        if (s.type === TOKEN_SECRET_TYPE && s.metadata.annotations?.[SA_NAME_ANNOTATION] === e.key.name) {
          this.queue.add(`${e.key.namespace}/${s.metadata.name}`);
        }
      }
    });
  }

  stop(): void {
    this.queue.stop();
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split("/", 2);
    const { informer, registry } = this.opts;
    const secret = informer.get(secretKind.plural, namespace, name) as Secret | undefined;
    if (!secret || secret.type !== TOKEN_SECRET_TYPE || secret.metadata.deletionTimestamp) return;
    const annotations = secret.metadata.annotations ?? {};
    const saName = annotations[SA_NAME_ANNOTATION];
    if (!saName) return;
    const sa = informer.get(serviceAccountKind.plural, namespace, saName);
    const recordedUid = annotations[SA_UID_ANNOTATION];
    if (!sa || (recordedUid && recordedUid !== sa.metadata.uid)) {
      await this.ignoreGone(registry.delete(secretKind, namespace, name, { dryRun: false, user: TOKENS_CONTROLLER_USER, preconditions: { uid: secret.metadata.uid } }));
      return;
    }
    const data = secret.data ?? {};
    if (data.token && data["ca.crt"] !== undefined && data.namespace && recordedUid) return;
    const next = structuredClone(secret);
    next.metadata.annotations = { ...annotations, [SA_UID_ANNOTATION]: sa.metadata.uid ?? "" };
    next.data = { ...data };
    if (!data.token) {
      const token = await this.opts.tokens.issueLegacy({ namespace, name: saName, uid: sa.metadata.uid ?? "", secretName: name });
      next.data.token = b64(token);
    }
    if (data["ca.crt"] === undefined) next.data["ca.crt"] = b64(this.opts.caPem);
    if (!data.namespace) next.data.namespace = b64(namespace);
    await this.ignoreGone(registry.update(secretKind, namespace, name, next, { dryRun: false, fieldValidation: "Ignore", user: TOKENS_CONTROLLER_USER }));
  }

  /** A Secret deleted or changed meanwhile is not an error: its next event brings it back to the queue. */
  private async ignoreGone(write: Promise<unknown>): Promise<void> {
    try {
      await write;
    } catch (err) {
      if (isStatusError(err) && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
  }
}

import { ageColumn, column, nameColumn } from "./columns";
import { defineKind } from "./define-kind";
import { serviceAccountSchema } from "./schema/service-account";
import type { LocalObjectReference, ObjectReference } from "./shared/object-reference";
import type { KubeObject } from "./types";

export interface ServiceAccount extends KubeObject {
  automountServiceAccountToken?: boolean;
  imagePullSecrets?: LocalObjectReference[];
  secrets?: ObjectReference[];
}

// kube-apiserver (1.32) validates nothing of a ServiceAccount beyond its metadata: the names in `secrets` and
// `imagePullSecrets` are not checked (they are only looked up by admission and the token controller).

/** Only the name of a referenced secret means anything (it is always in the account's namespace). */
function canonicalize(sa: ServiceAccount): void {
  if (!sa.secrets) return;
  sa.secrets = sa.secrets.map((ref) => (ref?.name ? { name: ref.name } : {}));
}

export const serviceAccount = defineKind<ServiceAccount>({
  kind: "ServiceAccount",
  schema: serviceAccountSchema,
  plural: "serviceaccounts",
  singular: "serviceaccount",
  shortNames: ["sa"],
  categories: [],
  namespaced: true,
  nameRule: "dns1123-subdomain",
  hasStatus: false,
  actionSubresources: ["token"],
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  deleteReturns: "object",
  selectableFields: {},
  fieldSelectorError: "known-only",

  columns: [
    nameColumn,
    column<ServiceAccount>({
      name: "Secrets",
      description:
        "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a \"kubernetes.io/enforce-mountable-secrets\" annotation set to \"true\". The \"kubernetes.io/enforce-mountable-secrets\" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret",
      cell: (sa) => sa.secrets?.length ?? 0,
    }),
    ageColumn,
  ],

  template: {
    apiVersion: "v1",
    kind: "ServiceAccount",
    metadata: { name: "web", labels: { app: "web" } },
    automountServiceAccountToken: false,
  },

  canonicalize,
});

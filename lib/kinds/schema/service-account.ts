// ServiceAccount (spec 2.10): `secrets` merge by name; `imagePullSecrets` is atomic (unlike the Pod's).
import { localObjectReference, objectReference } from "./object-reference";
import { arr, bool } from "./schema";
import { resource } from "./resource";

export const serviceAccountSchema = resource(
  "ServiceAccount",
  {
    automountServiceAccountToken: bool({ description: "Whether pods running as this account get an API token mounted; a pod may override it." }),
    imagePullSecrets: arr(localObjectReference, { description: "Secrets pods running as this account use to pull images." }),
    secrets: arr(objectReference, { mergeKey: "name", strategy: "merge", description: "Secrets pods running as this account may use." }),
  },
  { description: "An identity for processes running in pods, with the secrets it may use." },
);

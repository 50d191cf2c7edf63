// Secret (spec 2.4): maps merge key by key.
import { bool, bytes, map, str } from "./schema";
import { resource } from "./resource";

export const secretSchema = resource(
  "Secret",
  {
    data: map(bytes(), { description: "Secret values, base64-encoded; keys are letters, digits, '-', '_' and '.'. Total size under 1 MiB." }),
    stringData: map(str(), {
      description: "Write-only convenience: plain-text values merged into data on write (winning over data); never returned.",
    }),
    type: str({ description: "How the data is used (Opaque, kubernetes.io/tls, kubernetes.io/service-account-token, ...); fixes required keys." }),
    // Newer than the spec (Kubernetes 1.32):
    immutable: bool({ description: "When true, data cannot change (only metadata); the Secret must be deleted and recreated." }),
  },
  { description: "Holds secret data (passwords, tokens, keys) of a given type." },
);

// ConfigMap (spec 2.8).
import { bool, bytes, map, str } from "./schema";
import { resource } from "./resource";

export const configMapSchema = resource(
  "ConfigMap",
  {
    data: map(str(), { description: "Configuration values; keys are letters, digits, '-', '_' and '.'." }),
    // Newer than the spec (Kubernetes 1.32):
    binaryData: map(bytes(), { description: "Binary values, base64-encoded; a key may not also appear in data." }),
    immutable: bool({ description: "When true, data and binaryData cannot change; the ConfigMap must be deleted and recreated." }),
  },
  { description: "Configuration data (key/value pairs) for pods to consume as files, environment variables or arguments." },
);

// ConfigMap (spec 2.8).
import { map, str } from "./schema";
import { resource } from "./resource";

export const configMapSchema = resource(
  "ConfigMap",
  { data: map(str(), { description: "Configuration values; keys are letters, digits, '-', '_' and '.'." }) },
  { description: "Configuration data (key/value pairs) for pods to consume as files, environment variables or arguments." },
);

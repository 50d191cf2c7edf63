// The live object kube's field manager compares a create against: the kind's Go zero value as JSON
// (`runtime.ObjectCreater.New`, then the unstructured converter). What it already holds (`spec: {}`,
// `metadata.creationTimestamp: null`, a non-omitempty `containers: null`) is not "added" by the create, which
// decides where an Update entry gets a `.` (its own membership) and where it does not. The shape comes from
// the protobuf declarations (lib/codec), which record each field's Go presence; lists that Go always
// writes (no `omitempty`) are listed here, as the declarations treat every list as omitted when empty.
import { decodeMessage } from "../codec/protobuf/decode";
import { KINDS } from "../codec/protobuf/schema";
import type { AnyKind, KubeObject } from "../kinds/types";
import { apiVersionOf } from "../kinds";

/** Go fields without `omitempty` whose zero value is a nil slice or pointer (JSON `null`), per message. */
const ALWAYS_WRITTEN_NULLS: Record<string, Record<string, readonly string[]>> = {
  Pod: { spec: ["containers"] },
  LimitRange: { spec: ["limits"] },
  Role: { "": ["rules"] },
  ClusterRole: { "": ["rules"] },
  SecurityContextConstraints: {
    "": ["priority", "defaultAddCapabilities", "requiredDropCapabilities", "allowedCapabilities", "volumes", "users", "groups"],
  },
};

const cache = new Map<string, KubeObject>();

export function emptyObject(kind: AnyKind): KubeObject {
  const apiVersion = apiVersionOf(kind);
  const cacheKey = `${apiVersion}/${kind.kind}`;
  let zero = cache.get(cacheKey);
  if (!zero) {
    const message = KINDS[kind.kind]?.message;
    const body = (message ? decodeMessage(message, new Uint8Array()) : { metadata: { creationTimestamp: null } }) as Record<string, unknown>;
    for (const [field, names] of Object.entries(ALWAYS_WRITTEN_NULLS[kind.kind] ?? {})) {
      const target = (field ? (body[field] ??= {}) : body) as Record<string, unknown>;
      for (const n of names) target[n] = null;
    }
    zero = { apiVersion, kind: kind.kind, ...body } as KubeObject;
    cache.set(cacheKey, zero);
  }
  return structuredClone(zero);
}

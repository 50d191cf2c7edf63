// A kind's `/scale` subresource (a CRD version's `subresources.scale`), as kube's custom resource scale REST: the
// object read as an autoscaling/v1 Scale (spec and status replicas, the selector), and a Scale's `spec.replicas`
// written back into the object through the registry (an ordinary update: validation, generation, admission).
import type { AnyKind, KubeObject } from "../../kinds/types";
import type { WriteOptions } from "../../registry/options";
import type { Answer, Registry } from "../../registry/registry";
import { errors, field } from "../../status";
import { BASE_HEADERS, contentType, encodeValue } from "../encode/value";
import type { OutputFormat } from "../media";
import { applyPatch, type PatchType } from "../patch";
import type { ApiResponse } from "../types";
import { decodeBody } from "../media";

export interface ScaleObject {
  kind: string;
  apiVersion: string;
  metadata: Record<string, unknown>;
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

/** kube's Scale of an object: its identity, then the replicas and selector its kind's scale paths read. */
export function scaleOf(kind: AnyKind, obj: KubeObject): ScaleObject {
  const { specReplicas, statusReplicas, selector } = kind.scale!.read(obj);
  const m = obj.metadata;
  return {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata: {
      name: m.name, ...(m.namespace ? { namespace: m.namespace } : {}), uid: m.uid, resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: specReplicas ? { replicas: specReplicas } : {},
    status: { replicas: statusReplicas, ...(selector ? { selector } : {}) },
  };
}

/** The object with the Scale's replicas written back; kube's checks of the Scale first (422 Scale.autoscaling, 409). */
function scaled(kind: AnyKind, current: KubeObject, body: unknown, name: string): KubeObject {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw errors.badRequest("the object provided is unrecognized (must be of type Scale): couldn't get version/kind; json parse error: cannot unmarshal into Go value of type struct");
  }
  const scale = body as { metadata?: { resourceVersion?: string }; spec?: { replicas?: unknown } };
  const replicas = scale.spec?.replicas ?? 0;
  if (typeof replicas !== "number" || !Number.isInteger(replicas)) {
    throw errors.badRequest(`Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${typeof replicas} into Go struct field ScaleSpec.spec.replicas of type int32`);
  }
  if (replicas < 0) throw errors.invalid("Scale", name, [field.invalid("spec.replicas", replicas, "must be greater than or equal to 0")], "autoscaling");
  const rv = scale.metadata?.resourceVersion;
  // A Scale naming a resourceVersion updates only that version (kube's scale preconditions).
  const next: KubeObject = { ...current, metadata: { ...current.metadata, ...(rv ? { resourceVersion: rv } : {}) } };
  kind.scale!.setReplicas(next, replicas);
  return next;
}

/** GET, PUT and PATCH (JSON and merge patch) of `<object>/scale`. */
export async function scale(
  reg: Registry, kind: AnyKind, namespace: string, name: string, method: string, format: OutputFormat, pretty: boolean,
  body: () => Promise<{ raw: Buffer; type?: PatchType }>, opts: WriteOptions,
): Promise<ApiResponse> {
  let answer: Answer;
  if (method === "GET") {
    answer = await reg.get(kind, namespace, name);
  } else if (method === "PUT" || method === "PATCH") {
    const { raw, type } = await body();
    if (type === "strategic-merge-patch" || type === "apply-patch") throw errors.unsupportedMediaType("application/json-patch+json, application/merge-patch+json");
    const decoded = type ? decodeBody(raw, "json", "Patch") : decodeBody(raw, "json", "Scale");
    answer = await reg.patch(kind, namespace, name, (current) => {
      const input = type ? applyPatch(kind, type, decoded, scaleOf(kind, current) as unknown as KubeObject) : decoded;
      return scaled(kind, current, input, name);
    }, opts);
  } else {
    throw errors.methodNotAllowed();
  }
  const obj = (answer as { object?: KubeObject }).object;
  if (!obj) throw errors.internal("scale: no object");
  return {
    status: answer.code,
    headers: { ...BASE_HEADERS, "content-type": contentType(format.media) },
    body: encodeValue(scaleOf(kind, obj), format.media, pretty),
  };
}

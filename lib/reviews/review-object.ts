// The shared shape of every review answer: the request's spec echoed back with a status, under the
// review's own kind and group version, as kube-apiserver returns them (201 Created, never stored).
import { errors } from "../status";

export type Obj = Record<string, unknown>;

export function asObject(body: unknown, kind: string, apiVersion: string): Obj {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw errors.badRequest(`the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; json parse error`);
  }
  const obj = body as Obj;
  if (obj.kind !== undefined && obj.kind !== "" && obj.kind !== kind) {
    throw errors.badRequest(`${String(obj.kind)} in version "v1" cannot be handled as a ${kind}: converting (v1.${String(obj.kind)}) to (${apiVersion.split(".")[0]}.${kind}): unknown conversion`);
  }
  if (obj.apiVersion !== undefined && obj.apiVersion !== "" && obj.apiVersion !== apiVersion) {
    throw errors.badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersion})`);
  }
  return obj;
}

export function answer(kind: string, apiVersion: string, request: Obj, spec: unknown, status: unknown): { code: number; object: unknown } {
  const metadata = { ...((request.metadata as Obj | undefined) ?? {}), creationTimestamp: null };
  return { code: 201, object: { kind, apiVersion, metadata, ...(spec === undefined ? {} : { spec }), status } };
}

export const objectField = (o: Obj, key: string): Obj | undefined => {
  const v = o[key];
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
};

// TokenRequest (`POST .../serviceaccounts/{name}/token`, `kubectl create token`): a signed, expiring token
// bound to the ServiceAccount's uid (and optionally to a Pod, Secret or Node), as kube's token REST does.
import type { ActionHandler } from "../registry/action-handler";
import { errors, StatusError } from "../status";
import type { KubeObject } from "../kinds/types";
import { validateTokenRequest, type ServiceAccountTokens } from "../auth/service-account-token";

const API_VERSION = "authentication.k8s.io/v1";
type Obj = Record<string, unknown>;

export interface TokenRequestLookup {
  get(resource: string, namespace: string, name: string): KubeObject | undefined;
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

export function tokenRequestHandler(tokens: ServiceAccountTokens, lookup: TokenRequestLookup): ActionHandler {
  return async ({ namespace, name, body, dryRun }) => {
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw errors.badRequest("the object provided is unrecognized (must be of type TokenRequest)");
    const request = body as Obj;
    if (request.kind !== undefined && request.kind !== "" && request.kind !== "TokenRequest") {
      throw errors.badRequest(`${String(request.kind)} in version "v1" cannot be handled as a TokenRequest`);
    }
    const spec = { ...((request.spec as Obj | undefined) ?? {}) };
    if (spec.expirationSeconds === undefined) spec.expirationSeconds = 3600;
    const errs = validateTokenRequest(spec as Parameters<typeof validateTokenRequest>[0]);
    if (errs.length) throw errors.invalid("TokenRequest", name, errs, "authentication.k8s.io");
    const sa = lookup.get("serviceaccounts", namespace, name);
    if (!sa) throw errors.notFound("serviceaccounts", name);
    const ref = spec.boundObjectRef as Obj | undefined;
    let boundObject: { kind: "Pod" | "Secret" | "Node"; name: string; uid: string } | undefined;
    let node: { name: string; uid?: string } | undefined;
    if (ref) {
      const kind = str(ref.kind);
      const plural = kind === "Pod" ? "pods" : kind === "Secret" ? "secrets" : undefined;
      if (!plural) throw errors.badRequest(`cannot bind token for serviceaccount "${name}" to object of kind "${kind}": unsupported kind`);
      const target = lookup.get(plural, namespace, str(ref.name));
      if (!target) throw errors.notFound(plural, str(ref.name));
      if (str(ref.uid) && str(ref.uid) !== target.metadata.uid) {
        throw new StatusError(409, "Conflict", `Operation cannot be fulfilled on ${plural} "${str(ref.name)}": the UID in the bound object reference (${str(ref.uid)}) does not match the UID in record. The object might have been deleted and then recreated`, { name: str(ref.name), kind: plural });
      }
      if (kind === "Pod") {
        const podSa = str((target.spec as Obj | undefined)?.serviceAccountName) || "default";
        if (podSa !== name) throw errors.badRequest(`cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`);
        const nodeName = str((target.spec as Obj | undefined)?.nodeName);
        if (nodeName) node = { name: nodeName };
      }
      boundObject = { kind: kind as "Pod" | "Secret", name: str(ref.name), uid: target.metadata.uid ?? "" };
      spec.boundObjectRef = { ...ref, uid: target.metadata.uid };
    }
    const metadata = { name, namespace, creationTimestamp: null };
    if (dryRun) return { code: 201, object: { kind: "TokenRequest", apiVersion: API_VERSION, metadata, spec, status: { token: "", expirationTimestamp: null } } };
    const issued = await tokens.issue({
      namespace, name, uid: sa.metadata.uid ?? "",
      audiences: Array.isArray(spec.audiences) && spec.audiences.length ? spec.audiences as string[] : undefined,
      expirationSeconds: Number(spec.expirationSeconds), boundObject, node,
    });
    return {
      code: 201,
      object: {
        kind: "TokenRequest", apiVersion: API_VERSION, metadata,
        spec: { ...spec, audiences: issued.audiences, expirationSeconds: issued.expirationSeconds },
        status: { token: issued.token, expirationTimestamp: issued.expirationTimestamp },
      },
    };
  };
}

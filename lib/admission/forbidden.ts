// admission.NewForbidden: a plug-in's refusal as kube-apiserver words it, `<resource> "<name>" is forbidden: <why>`,
// naming the object by the request's name, else the body's name or generateName (not yet expanded), else Unknown.
import { errors, type StatusError } from "../status";
import type { AdmissionRequest } from "./admission-chain";

export const requestGroupResource = (req: AdmissionRequest) => (req.kind.group ? `${req.kind.plural}.${req.kind.group}` : req.kind.plural);

export function admissionForbidden(req: AdmissionRequest, why: string): StatusError {
  const meta = req.object?.metadata;
  const name = req.name || meta?.name || meta?.generateName || "Unknown";
  const resource = requestGroupResource(req);
  return errors.forbidden(`${resource} "${name}" is forbidden: ${why}`, resource, name);
}

/** utilerrors.NewAggregate(...).Error(): one message alone, several deduplicated inside brackets. */
export function aggregateMessage(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0] : `[${unique.join(", ")}]`;
}

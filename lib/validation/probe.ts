// Probes and lifecycle handlers (validateProbe, validateHandler, 1.32): exactly one handler, its action's
// fields, and non-negative probe timings; liveness and startup probes need successThreshold 1.
import { field, type FieldError } from "../status";
import { regexError } from "./dns-names";
import { validatePortNumOrName } from "./port";
import { isSet, listOf, numberOf, objectOf, optionalNumber, stringOf, type JsonObject } from "./zero-values";

const MORE_THAN_ONE_HANDLER = "may not specify more than 1 handler type";
const HTTP_HEADER_MSG = regexError("a valid HTTP header must consist of alphanumeric characters or '-'", "[-A-Za-z0-9]+", "X-Header-Name");

function httpGetErrors(action: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!stringOf(action.path)) errs.push(field.required(`${path}.path`));
  errs.push(...validatePortNumOrName(action.port, `${path}.port`));
  const scheme = stringOf(action.scheme);
  if (scheme !== "HTTP" && scheme !== "HTTPS") errs.push(field.notSupported(`${path}.scheme`, scheme, ["HTTP", "HTTPS"]));
  for (const header of listOf(action.httpHeaders)) {
    const name = stringOf(objectOf(header).name);
    if (!/^[-A-Za-z0-9]+$/.test(name)) errs.push(field.invalid(`${path}.httpHeaders`, name, HTTP_HEADER_MSG));
  }
  return errs;
}

/** validateHandler over the handler kinds a probe or lifecycle hook may carry (in kube-apiserver's order). */
function validateHandler(handler: JsonObject, kinds: readonly string[], gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of kinds) {
    if (!isSet(handler[kind])) continue;
    if (count > 0) {
      errs.push(field.forbidden(`${path}.${kind}`, MORE_THAN_ONE_HANDLER));
      continue;
    }
    count++;
    const action = objectOf(handler[kind]);
    const p = `${path}.${kind}`;
    switch (kind) {
      case "exec":
        if (listOf(action.command).length === 0) errs.push(field.required(`${p}.command`));
        break;
      case "httpGet":
        errs.push(...httpGetErrors(action, p));
        break;
      case "tcpSocket":
        errs.push(...validatePortNumOrName(action.port, `${p}.port`));
        break;
      case "grpc":
        errs.push(...validatePortNumOrName(numberOf(action.port), `${p}.port`));
        break;
      case "sleep": {
        const seconds = numberOf(action.seconds);
        if (gracePeriod !== undefined && (seconds <= 0 || seconds > gracePeriod)) {
          errs.push(field.invalid(p, seconds, `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`));
        }
        break;
      }
    }
  }
  if (count === 0) errs.push(field.required(path, "must specify a handler type"));
  return errs;
}

const nonNegative = (value: unknown, path: string): FieldError[] => {
  const n = numberOf(value);
  return n < 0 ? [field.invalid(path, n, "must be greater than or equal to 0")] : [];
};

/** validateProbe; `kind` adds the liveness/startup successThreshold rule or the readiness grace-period rule. */
export function validateProbe(probe: unknown, kind: "liveness" | "readiness" | "startup", gracePeriod: number | undefined, path: string): FieldError[] {
  if (!isSet(probe)) return [];
  const p = objectOf(probe);
  const errs = validateHandler(p, ["exec", "httpGet", "tcpSocket", "grpc"], gracePeriod, path);
  for (const key of ["initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"]) {
    errs.push(...nonNegative(p[key], `${path}.${key}`));
  }
  const grace = optionalNumber(p.terminationGracePeriodSeconds);
  if (grace !== undefined && grace <= 0) errs.push(field.invalid(`${path}.terminationGracePeriodSeconds`, grace, "must be greater than 0"));
  if (kind !== "readiness" && numberOf(p.successThreshold) !== 1) {
    errs.push(field.invalid(`${path}.successThreshold`, numberOf(p.successThreshold), "must be 1"));
  }
  if (kind === "readiness" && grace !== undefined) {
    errs.push(field.invalid(`${path}.terminationGracePeriodSeconds`, grace, "must not be set for readinessProbes"));
  }
  return errs;
}

/** validateLifecycle: postStart and preStop handlers. */
export function validateLifecycle(lifecycle: unknown, gracePeriod: number | undefined, path: string): FieldError[] {
  const l = objectOf(lifecycle);
  const errs: FieldError[] = [];
  for (const hook of ["postStart", "preStop"]) {
    if (isSet(l[hook])) errs.push(...validateHandler(objectOf(l[hook]), ["exec", "httpGet", "tcpSocket", "sleep"], gracePeriod, `${path}.${hook}`));
  }
  return errs;
}

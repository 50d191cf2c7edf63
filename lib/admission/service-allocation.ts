// Service addresses, where kube-apiserver's service REST storage assigns them (beginCreate / beginUpdate, after
// mutating admission and before validation): IP family fields filled in, cluster IPs and node ports taken from
// the configured ranges (requested ones honoured or refused with kube's 422 causes), the health-check node port
// for LoadBalancer services with `externalTrafficPolicy: Local`. Values are taken in the store (lib/allocators)
// only for a write that will pass validation, so a refused write leaves nothing behind; dry runs only check.
// Values an update or delete gives up are released by the repair controller once the write is committed.
import { errors, field, type FieldError } from "../status";
import { AllocationError, type AllocationOwner, type ServiceAllocator } from "../allocators/service-allocator";
import { parseIP, type IPFamily } from "../allocators/ip-range";
import { prepareServiceUpdate } from "../kinds/shared/service-strategy";
import type { KubeObject } from "../kinds/types";
import { needsHealthCheck, validateServiceSpec, validateServiceUpdate } from "../validation/service-spec";
import { validateObjectMeta } from "../validation/object-meta";
import { goSlice, invalidRendered } from "../validation/rendered-value";
import type { AdmissionPlugin, AdmissionRequest } from "./admission-chain";

type Spec = Record<string, unknown> & { ports?: Record<string, unknown>[] };

const specOf = (svc: KubeObject | undefined): Spec => ((svc?.spec && typeof svc.spec === "object" ? svc.spec : {}) as Spec);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : String(x))) : []);
const num = (v: unknown): number => (typeof v === "number" ? v : 0);
const sameList = (a: unknown, b: unknown) => JSON.stringify(strings(a)) === JSON.stringify(strings(b));
const isHeadless = (spec: Spec) => strings(spec.clusterIPs)[0] === "None";
const hasSelector = (spec: Spec) => !!spec.selector && typeof spec.selector === "object" && Object.keys(spec.selector).length > 0;
const wantsNodePorts = (spec: Spec) => spec.type === "NodePort" || spec.type === "LoadBalancer";
/** shouldAllocateNodePorts: LoadBalancer services may opt out with allocateLoadBalancerNodePorts: false. */
const allocatesNodePorts = (spec: Spec) => spec.type === "NodePort" || (spec.type === "LoadBalancer" && spec.allocateLoadBalancerNodePorts !== false);
const nodePortsOf = (spec: Spec) => (spec.ports ?? []).map((p) => num(p?.nodePort)).filter((n) => n !== 0);

/** normalizeClusterIPs: keeps clusterIP and clusterIPs in step before anyone reads them. */
function normalizeClusterIPs(spec: Spec, oldSpec: Spec | undefined): void {
  const single = typeof spec.clusterIP === "string" ? spec.clusterIP : "";
  if (!oldSpec) {
    if (single && strings(spec.clusterIPs).length === 0) spec.clusterIPs = [single];
    return;
  }
  const oldSingle = typeof oldSpec.clusterIP === "string" ? oldSpec.clusterIP : "";
  if (strings(oldSpec.clusterIPs).length > 0 && strings(spec.clusterIPs).length === 0 && oldSingle === single) {
    spec.clusterIPs = oldSpec.clusterIPs;
  }
  if (oldSingle !== single) {
    if (oldSingle && !single) {
      if (sameList(spec.clusterIPs, oldSpec.clusterIPs)) delete spec.clusterIPs;
    } else if (sameList(spec.clusterIPs, oldSpec.clusterIPs)) {
      spec.clusterIPs = [single];
    }
  }
}

export class ServiceAllocation implements AdmissionPlugin {
  readonly name = "ServiceAllocation";

  constructor(private readonly allocator: ServiceAllocator, private readonly serviceExists: (namespace: string, name: string) => boolean = () => false) {}

  async admit(req: AdmissionRequest): Promise<void> {
    if (req.kind.plural !== "services" || req.kind.group || req.subresource !== "" || !req.object) return;
    if (req.operation !== "CREATE" && req.operation !== "UPDATE") return;
    const svc = req.object;
    if (!svc.spec || typeof svc.spec !== "object") return;
    const old = req.operation === "UPDATE" ? req.oldObject : undefined;
    // patchAllocatedValues and the type-dependent drops happen before allocation in kube (beginUpdate).
    if (old) prepareServiceUpdate(svc as never, old as never);
    const spec = specOf(svc);
    normalizeClusterIPs(spec, old ? specOf(old) : undefined);
    if (!this.initIPFamilyFields(svc, old)) return;

    // First pass on a copy, checking only: allocation errors come first, as in kube; then the write's own
    // validation decides whether anything is taken for real.
    const trial = structuredClone(svc);
    await this.allocate(trial, old, true);
    const name = svc.metadata.name ?? "";
    const doomed = this.invalid(trial, old) || (!old && this.serviceExists(svc.metadata.namespace ?? "", name));
    if (req.dryRun || doomed) {
      svc.spec = trial.spec;
      return;
    }
    await this.allocate(svc, old, false);
  }

  private invalid(svc: KubeObject, old: KubeObject | undefined): boolean {
    const errs: FieldError[] = [
      ...validateObjectMeta(svc.metadata, { namespaced: true, nameRule: "dns1035-label" }),
      ...validateServiceSpec(svc as never),
      ...(old ? validateServiceUpdate(svc as never, old as never) : []),
    ];
    return errs.length > 0;
  }

  /** initIPFamilyFields for a one-range (single-stack) cluster. False when the IP fields are too broken to allocate. */
  private initIPFamilyFields(svc: KubeObject, old: KubeObject | undefined): boolean {
    const spec = specOf(svc);
    if (spec.type === "ExternalName") return false;
    const oldSpec = old ? specOf(old) : undefined;
    const family: IPFamily = this.allocator.ipRange.family;
    if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) {
      if (oldSpec && typeof oldSpec.ipFamilyPolicy === "string") spec.ipFamilyPolicy = oldSpec.ipFamilyPolicy;
      else spec.ipFamilyPolicy = spec.clusterIP === "None" && !hasSelector(spec) ? "RequireDualStack" : "SingleStack";
    }
    // kube's loose pre-validation: a malformed IP field is reported with the related causes, and nothing allocated.
    const related = validateServiceSpec(svc as never).filter((e) => /^spec\.(clusterIPs?|ipFamil)/.test(e.field));
    if (related.length) throw errors.invalid("Service", svc.metadata.name ?? "", related);

    const errs: FieldError[] = [];
    const policy = spec.ipFamilyPolicy;
    if (oldSpec) {
      if (policy === "SingleStack") {
        if (sameList(spec.clusterIPs, oldSpec.clusterIPs) && strings(spec.clusterIPs).length > 1) spec.clusterIPs = strings(spec.clusterIPs).slice(0, 1);
        if (sameList(spec.ipFamilies, oldSpec.ipFamilies) && strings(spec.ipFamilies).length > 1) spec.ipFamilies = strings(spec.ipFamilies).slice(0, 1);
      } else {
        const ips = strings(spec.clusterIPs), fams = strings(spec.ipFamilies);
        if (ips.length && ips.length < strings(oldSpec.clusterIPs).length) errs.push(field.invalid("spec.ipFamilyPolicy", policy, "must be 'SingleStack' to release the secondary cluster IP"));
        if (fams.length && fams.length < strings(oldSpec.ipFamilies).length) errs.push(field.invalid("spec.ipFamilyPolicy", policy, "must be 'SingleStack' to release the secondary IP family"));
      }
    }
    if (policy === "SingleStack") {
      if (strings(spec.clusterIPs).length === 2) errs.push(field.invalid("spec.ipFamilyPolicy", policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
      if (strings(spec.ipFamilies).length === 2) errs.push(field.invalid("spec.ipFamilyPolicy", policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
    }
    const families = strings(spec.ipFamilies);
    const ips = strings(spec.clusterIPs);
    for (let i = 0; i < ips.length && ips[i] !== "None"; i++) {
      const fam = parseIP(ips[i])?.family;
      if (i < families.length || !fam) continue;
      if (fam !== family) errs.push(invalidRendered(`spec.clusterIPs[${i}]`, goSlice("string", ips), `${fam} is not configured on this cluster`));
      else families.push(fam);
    }
    if (errs.length) throw errors.invalid("Service", svc.metadata.name ?? "", errs);
    if (families.length) spec.ipFamilies = families;

    if (spec.clusterIP === "None" && !hasSelector(spec)) {
      // Headless and selectorless: anything but SingleStack gets both families, even on a single-stack cluster.
      const fams = families.length ? families : [family];
      if (fams.length < 2 && policy !== "SingleStack") fams.push(fams[0] === "IPv4" ? "IPv6" : "IPv4");
      spec.ipFamilies = fams;
      return true;
    }
    if (policy === "RequireDualStack") errs.push(field.invalid("spec.ipFamilyPolicy", policy, "this cluster is not configured for dual-stack services"));
    families.forEach((f, i) => { if (f !== family) errs.push(field.invalid(`spec.ipFamilies[${i}]`, f, "not configured on this cluster")); });
    if (errs.length) throw errors.invalid("Service", svc.metadata.name ?? "", errs);
    if (!families.length) spec.ipFamilies = [family];
    return true;
  }

  private async allocate(svc: KubeObject, old: KubeObject | undefined, dryRun: boolean): Promise<void> {
    const spec = specOf(svc);
    const oldSpec = old ? specOf(old) : undefined;
    const owner: AllocationOwner = { namespace: svc.metadata.namespace ?? "", name: svc.metadata.name ?? "", uid: svc.metadata.uid ?? "" };
    const name = svc.metadata.name ?? "";

    // Cluster IPs: on create, and when an update turns an ExternalName service into one that needs an IP.
    const needsIP = spec.type !== "ExternalName" && !isHeadless(spec) && (!oldSpec || oldSpec.type === "ExternalName");
    if (needsIP) {
      const ips = strings(spec.clusterIPs);
      const requested = ips[0] ?? "";
      try {
        const ip = await this.allocator.allocateIP(requested, owner, dryRun);
        spec.clusterIPs = [ip, ...ips.slice(1)];
        spec.clusterIP = ip;
      } catch (err) {
        if (!(err instanceof AllocationError)) throw err;
        if (err.reason === "full") throw errors.internal(`failed to allocate a serviceIP: ${err.message}`);
        throw errors.invalid("Service", name, [invalidRendered("spec.clusterIPs", goSlice("string", ips), `failed to allocate IP ${requested}: ${err.message}`)]);
      }
    }

    // Node ports: every port of a NodePort/LoadBalancer service; ports sharing a port number share a node port.
    if (wantsNodePorts(spec)) {
      const held = new Set(oldSpec && wantsNodePorts(oldSpec) ? nodePortsOf(oldSpec) : []);
      const taken = new Set<number>();
      const byServicePort = new Map<number, number>();
      const ports = spec.ports ?? [];
      for (let i = 0; i < ports.length; i++) {
        const port = ports[i];
        if (!port || typeof port !== "object") continue;
        let nodePort = num(port.nodePort);
        if (nodePort === 0 && !allocatesNodePorts(spec)) continue;
        if (!oldSpec && nodePort === 0) {
          nodePort = byServicePort.get(num(port.port)) ?? ports.slice(i + 1).map((p) => (num(p?.port) === num(port.port) ? num(p?.nodePort) : 0)).find((n) => n !== 0) ?? 0;
        }
        if (nodePort !== 0) {
          if (!held.has(nodePort) && !taken.has(nodePort)) {
            try {
              await this.allocator.allocatePort(nodePort, owner, dryRun);
            } catch (err) {
              if (!(err instanceof AllocationError)) throw err;
              throw errors.invalid("Service", name, [field.invalid(`spec.ports[${i}].nodePort`, nodePort, err.message)]);
            }
            taken.add(nodePort);
          }
        } else {
          try {
            nodePort = await this.allocator.allocatePort(0, owner, dryRun);
          } catch (err) {
            if (!(err instanceof AllocationError)) throw err;
            throw errors.internal(`failed to allocate a nodePort: ${err.message}`);
          }
          taken.add(nodePort);
        }
        port.nodePort = nodePort;
        byServicePort.set(num(port.port), nodePort);
      }
    }

    // The health-check node port: when a service comes to need one.
    if (needsHealthCheck(spec) && !(oldSpec && needsHealthCheck(oldSpec))) {
      const requested = num(spec.healthCheckNodePort);
      try {
        spec.healthCheckNodePort = await this.allocator.allocatePort(requested, owner, dryRun);
      } catch (err) {
        if (!(err instanceof AllocationError)) throw err;
        throw errors.internal(requested
          ? `failed to allocate requested HealthCheck NodePort ${requested}: ${err.message}`
          : `failed to allocate a HealthCheck NodePort 0: ${err.message}`);
      }
    }
  }
}

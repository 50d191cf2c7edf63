// Each replica's identity Lease (kube-apiserver's APIServerIdentity: `kube-system/apiserver-<hash>`, label
// `apiserver.kubernetes.io/identity: kube-apiserver`), which here is also the record kube keeps under
// `/masterleases/<ip>` with a TTL: the replica's serving address rides on it (kube's peer-advertise-address
// annotation) and it counts as live while `renewTime + leaseDurationSeconds` lies ahead. Every replica renews
// its own and reads everybody's, so the `kubernetes` Endpoints can list the live ones and drop a replica that
// stopped renewing (killed, partitioned) once its duration has passed, with no timer in the store.
import { createHash, randomUUID } from "node:crypto";
import { hostname as osHostname } from "node:os";
import { isStatusError } from "../status";
import { lease as leaseKind, type Lease } from "../kinds/lease";
import type { Registry } from "../registry/registry";
import type { Informer } from "./informer";

export const IDENTITY_LEASE_NAMESPACE = "kube-system";
export const IDENTITY_LABEL = "apiserver.kubernetes.io/identity";
export const KUBE_APISERVER = "kube-apiserver";
export const HOSTNAME_LABEL = "kubernetes.io/hostname";
/** `<ip>:<port>` (`[v6]:<port>`), as kube writes it for its peer proxy. */
export const PEER_ADDRESS_ANNOTATION = "kubernetes.io/peer-advertise-address";
/** kube's IdentityLeaseGCPeriod: an expired identity Lease stays visible this long before it is collected. */
export const IDENTITY_LEASE_GC_AFTER_MS = 3_600_000;

const LEASES = leaseKind.plural;
const write = { dryRun: false, fieldValidation: "Ignore" as const };

export interface ApiserverAddress {
  ip: string;
  port: number;
}

export const joinHostPort = ({ ip, port }: ApiserverAddress) => (ip.includes(":") ? `[${ip}]:${port}` : `${ip}:${port}`);

export function splitHostPort(text: string | undefined): ApiserverAddress | undefined {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([0-9.]+)):(\d{1,5})$/.exec(text ?? "");
  const port = m ? Number(m[3]) : 0;
  return m && port >= 1 && port <= 65535 ? { ip: m[1] ?? m[2], port } : undefined;
}

/** RFC 4648 base32 without padding, lower case (kube's id encoding). */
function base32(bytes: Uint8Array): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  let out = "", bits = 0, value = 0;
  for (const b of bytes) {
    value = ((value << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/**
 * kube names the Lease after a hash of the host name and "kube-apiserver" (length-prefixed), stable across
 * restarts. Replicas here may share a host, so the serving address joins the hash: a restart on the same
 * address and port renews the same Lease, two replicas on one host keep two.
 */
export function apiserverId(hostname: string, address: ApiserverAddress): string {
  const hash = createHash("sha256");
  for (const part of [hostname, KUBE_APISERVER, joinHostPort(address)]) {
    const bytes = Buffer.from(part, "utf8");
    hash.update(Buffer.from([bytes.length >> 8, bytes.length & 0xff]));
    hash.update(bytes);
  }
  return `apiserver-${base32(hash.digest().subarray(0, 16))}`;
}

/** MicroTime as kube writes it: RFC 3339 with six fractional digits. */
const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

/** When the Lease stops counting (ms), or undefined when it carries no renewal. */
export function expiresAt(lease: Lease): number | undefined {
  const renewed = Date.parse(lease.spec?.renewTime ?? "");
  const seconds = lease.spec?.leaseDurationSeconds;
  return Number.isFinite(renewed) && typeof seconds === "number" ? renewed + seconds * 1000 : undefined;
}

const isIdentityLease = (lease: Lease) => lease.metadata.labels?.[IDENTITY_LABEL] === KUBE_APISERVER;

/** The addresses of the replicas whose identity Lease is live at `now`, one each, sorted as kube sorts IPs. */
export function liveApiservers(leases: Lease[], now: number, exclude?: string): ApiserverAddress[] {
  const seen = new Map<string, ApiserverAddress>();
  for (const lease of leases) {
    if (!isIdentityLease(lease) || lease.metadata.name === exclude) continue;
    const address = splitHostPort(lease.metadata.annotations?.[PEER_ADDRESS_ANNOTATION]);
    if (!address || (expiresAt(lease) ?? 0) <= now) continue;
    seen.set(joinHostPort(address), address);
  }
  return [...seen.values()].sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : a.port - b.port));
}

export interface IdentityLeaseOptions {
  registry: Registry;
  informer: Informer;
  address: ApiserverAddress;
  durationSeconds: number;
  hostname?: string;
  now?: () => number;
}

/** This replica's own identity Lease: renewed (created when missing), removed on a clean stop. */
export class ApiserverIdentityLease {
  readonly name: string;
  readonly holderIdentity: string;
  private readonly hostname: string;
  private readonly now: () => number;

  constructor(private readonly opts: IdentityLeaseOptions) {
    this.hostname = opts.hostname ?? osHostname();
    this.name = apiserverId(this.hostname, opts.address);
    this.holderIdentity = `${this.name}_${randomUUID()}`;
    this.now = opts.now ?? Date.now;
  }

  /** Moves renewTime to now. Throws on a conflict (the cache was behind): the caller retries. */
  async renew(): Promise<void> {
    const current = this.opts.informer.get(LEASES, IDENTITY_LEASE_NAMESPACE, this.name) as Lease | undefined;
    const labels = { ...(current?.metadata.labels ?? {}), [IDENTITY_LABEL]: KUBE_APISERVER, [HOSTNAME_LABEL]: this.hostname };
    const annotations = { ...(current?.metadata.annotations ?? {}), [PEER_ADDRESS_ANNOTATION]: joinHostPort(this.opts.address) };
    const spec = {
      ...(current?.spec ?? {}),
      holderIdentity: this.holderIdentity,
      leaseDurationSeconds: this.opts.durationSeconds,
      renewTime: microTime(this.now()),
    };
    if (!current) {
      await this.opts.registry.create(leaseKind, IDENTITY_LEASE_NAMESPACE, {
        apiVersion: "coordination.k8s.io/v1", kind: "Lease",
        metadata: { name: this.name, namespace: IDENTITY_LEASE_NAMESPACE, labels, annotations }, spec,
      }, write);
      return;
    }
    await this.opts.registry.update(leaseKind, IDENTITY_LEASE_NAMESPACE, this.name, {
      ...current, metadata: { ...current.metadata, labels, annotations }, spec,
    }, write);
  }

  /** Deletes this replica's Lease, so the others drop its address at once instead of after the duration. */
  async remove(): Promise<void> {
    try {
      await this.opts.registry.delete(leaseKind, IDENTITY_LEASE_NAMESPACE, this.name, { dryRun: false });
    } catch (err) {
      if (!(isStatusError(err) && err.code === 404)) throw err;
    }
  }

  /** kube's apiserverleasegc: identity Leases expired for longer than the GC period go (never this replica's). */
  async collectExpired(): Promise<void> {
    const cutoff = this.now() - IDENTITY_LEASE_GC_AFTER_MS;
    for (const lease of this.opts.informer.list(LEASES, IDENTITY_LEASE_NAMESPACE) as Lease[]) {
      if (!isIdentityLease(lease) || lease.metadata.name === this.name) continue;
      const expiry = expiresAt(lease);
      if (expiry === undefined || expiry > cutoff) continue;
      try {
        // Pinned to the version judged: a replica that came back and renewed meanwhile keeps its Lease.
        await this.opts.registry.delete(leaseKind, IDENTITY_LEASE_NAMESPACE, lease.metadata.name!, {
          dryRun: false, preconditions: { resourceVersion: lease.metadata.resourceVersion },
        });
      } catch (err) {
        if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
      }
    }
  }
}

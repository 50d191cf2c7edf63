// kube's sourceIPs: X-Forwarded-For addresses, then X-Real-Ip unless already listed, then the connection's
// own address unless it repeats the last one. Only the last entry can be trusted; the rest are the client's word.
import { isIPv4, isIPv6 } from "node:net";

/** Go's IP.String form: IPv4 (also IPv4-mapped IPv6) dotted, IPv6 compressed lower-case; undefined if invalid. */
export function canonicalIP(raw: string): string | undefined {
  const ip = raw.trim();
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip) || ip.includes("%")) return undefined; // Go's ParseIP rejects zones
  let v6: string;
  try {
    v6 = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (!mapped) return v6;
  const hi = parseInt(mapped[1], 16), lo = parseInt(mapped[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export function sourceIPs(
  header: (lowerCaseName: string) => string | null | undefined,
  remoteAddress: string | undefined,
): string[] {
  const ips: string[] = [];
  const forwarded = header("x-forwarded-for");
  if (forwarded) {
    for (const part of forwarded.split(",")) {
      const ip = canonicalIP(part);
      if (ip) ips.push(ip);
    }
  }
  const realIp = header("x-real-ip");
  if (realIp) {
    const ip = canonicalIP(realIp);
    if (ip && !ips.includes(ip)) ips.push(ip);
  }
  const remote = remoteAddress ? canonicalIP(remoteAddress) : undefined;
  if (remote && ips[ips.length - 1] !== remote) ips.push(remote);
  return ips;
}

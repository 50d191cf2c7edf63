// One service IP range (--service-cluster-ip-range) as kube-apiserver 1.32's bitmap ipallocator sees it: the
// network address is never handed out, nor the IPv4 broadcast address; an IPv6 range is capped at 65536
// addresses; the first usable address belongs to the `kubernetes` Service in `default`; and the lower band of
// the range (min(max(16, size/16), 256) addresses) is tried last by dynamic allocation, so that addresses
// people pick by hand rarely collide with assigned ones (ServiceIPStaticSubrange, GA since 1.26).

export type IPFamily = "IPv4" | "IPv6";

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The address as an integer, or undefined when it is no IP address. Accepts IPv4-mapped IPv6 forms. */
export function parseIP(text: string): { family: IPFamily; value: bigint } | undefined {
  const v4 = V4.exec(text);
  if (v4) {
    const octets = v4.slice(1).map(Number);
    if (octets.some((o, i) => o > 255 || (v4[i + 1].length > 1 && v4[i + 1].startsWith("0")))) return undefined;
    return { family: "IPv4", value: octets.reduce((acc, o) => (acc << 8n) | BigInt(o), 0n) };
  }
  if (!text.includes(":") || /[^0-9a-fA-F:.]/.test(text)) return undefined;
  let head = text;
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    // An embedded dotted quad (::ffff:10.0.0.1) stands for the last two words.
    const embedded = parseIP(text.slice(lastColon + 1));
    if (!embedded || embedded.family !== "IPv4") return undefined;
    head = `${text.slice(0, lastColon + 1)}${(embedded.value >> 16n).toString(16)}:${(embedded.value & 0xffffn).toString(16)}`;
  }
  const halves = head.split("::");
  if (halves.length > 2) return undefined;
  const words = (part: string) => (part === "" ? [] : part.split(":"));
  const left = words(halves[0]);
  const right = halves.length === 2 ? words(halves[1]) : [];
  if ([...left, ...right].some((w) => !/^[0-9a-fA-F]{1,4}$/.test(w))) return undefined;
  const total = left.length + right.length;
  if (halves.length === 1 ? total !== 8 : total > 7) return undefined;
  const all = [...left.map((w) => parseInt(w, 16)), ...Array(8 - total).fill(0), ...right.map((w) => parseInt(w, 16))];
  return { family: "IPv6", value: all.reduce((acc, w) => (acc << 16n) | BigInt(w), 0n) };
}

/** Go's net.IP.String(): dotted quad, or RFC 5952 compressed IPv6. */
export function formatIP(family: IPFamily, value: bigint): string {
  if (family === "IPv4") return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join(".");
  const words = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  let bestStart = -1, bestLen = 0;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) { bestStart = i; bestLen = j - i; }
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(":");
  if (bestStart < 0) return hex(words);
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLen))}`;
}

/** Why an address cannot be taken, with kube's texts (ipallocator's ErrAllocated, ErrNotInRange, ErrFull). */
export const IP_ALREADY_ALLOCATED = "provided IP is already allocated";
export const RANGE_FULL = "range is full";

export class IPRange {
  readonly family: IPFamily;
  /** The CIDR as Go prints it (network address / prefix length). */
  readonly cidr: string;
  /** Usable addresses: offsets 0 .. size-1 from `base`. */
  readonly size: number;
  /** Offsets below this are the static band, used by dynamic allocation only when the rest is taken. */
  readonly staticBand: number;
  private readonly network: bigint;
  private readonly bits: number;
  private readonly prefix: number;
  private readonly base: bigint;

  constructor(cidr: string) {
    const slash = cidr.indexOf("/");
    const ip = parseIP(cidr.slice(0, slash));
    const prefix = Number(cidr.slice(slash + 1));
    if (slash < 0 || !ip || !Number.isInteger(prefix)) throw new Error(`invalid CIDR ${JSON.stringify(cidr)}`);
    this.family = ip.family;
    this.bits = ip.family === "IPv4" ? 32 : 128;
    if (prefix < 0 || prefix > this.bits) throw new Error(`invalid CIDR ${JSON.stringify(cidr)}`);
    this.prefix = prefix;
    const hostBits = BigInt(this.bits - prefix);
    this.network = (ip.value >> hostBits) << hostBits;
    this.cidr = `${formatIP(this.family, this.network)}/${prefix}`;
    const total = 1n << hostBits;
    let usable = this.family === "IPv6" ? (total > 65536n ? 65536n : total) : total - 1n;
    usable -= 1n;
    this.size = usable < 0n ? 0 : Number(usable);
    this.base = this.network + 1n;
    // Computed on the whole CIDR, as kube does: `min(max(16, cidrSize/16), 256)`, none for ranges of 16 or fewer.
    const cidrSize = total > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(total);
    this.staticBand = cidrSize <= 16 ? 0 : Math.min(Math.max(16, Math.floor(cidrSize / 16)), 256);
  }

  /** The offset of a usable address, or undefined when it is outside the range (or its network/broadcast address). */
  offsetOf(text: string): number | undefined {
    const ip = parseIP(text);
    if (!ip || ip.family !== this.family) return undefined;
    const offset = ip.value - this.base;
    return offset < 0n || offset >= BigInt(this.size) ? undefined : Number(offset);
  }

  at(offset: number): string {
    return formatIP(this.family, this.base + BigInt(offset));
  }

  /** The canonical text of an address (the allocation key), or undefined for a non-address. */
  canonical(text: string): string | undefined {
    const ip = parseIP(text);
    return ip ? formatIP(ip.family, ip.value) : undefined;
  }

  /** ipallocator's ErrNotInRange text. */
  notInRange(ip: string): string {
    return `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.cidr}`;
  }
}

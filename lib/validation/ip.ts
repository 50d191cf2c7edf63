// IP addresses and CIDRs as kube-apiserver 1.32 parses them (k8s.io/utils/net ParseIPSloppy / ParseCIDRSloppy:
// Go 1.16 rules, so IPv4 octets may carry leading zeros) and the field checks built on them.
import { field, type FieldError } from "../status";

const IP_MSG = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
const CIDR_MSG = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

/** Decimal digits at the start of s: value and length, or undefined when there are none or it is huge. */
function decimalPrefix(s: string): { n: number; len: number } | undefined {
  let n = 0;
  let i = 0;
  for (; i < s.length && s[i] >= "0" && s[i] <= "9"; i++) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    if (n >= 0xffffff) return undefined;
  }
  return i === 0 ? undefined : { n, len: i };
}

function parseIPv4(s: string): number[] | undefined {
  const bytes: number[] = [];
  let rest = s;
  for (let i = 0; i < 4; i++) {
    if (i > 0) {
      if (rest[0] !== ".") return undefined;
      rest = rest.slice(1);
    }
    const d = decimalPrefix(rest);
    if (!d || d.n > 0xff) return undefined;
    bytes.push(d.n);
    rest = rest.slice(d.len);
  }
  return rest.length === 0 ? bytes : undefined;
}

function parseIPv6(s: string): number[] | undefined {
  const ip: number[] = new Array(16).fill(0);
  let ellipsis = -1;
  let rest = s;
  if (rest.startsWith("::")) {
    ellipsis = 0;
    rest = rest.slice(2);
    if (rest.length === 0) return ip;
  }
  let i = 0;
  while (i < 16) {
    let j = 0;
    let n = 0;
    while (j < rest.length && /[0-9a-fA-F]/.test(rest[j])) {
      n = n * 16 + parseInt(rest[j], 16);
      j++;
      if (n > 0xffffff) return undefined;
    }
    if (j === 0 || n > 0xffff) return undefined;
    if (j < rest.length && rest[j] === ".") {
      // Embedded IPv4 in the last 32 bits.
      if (ellipsis < 0 && i !== 12) return undefined;
      if (i + 4 > 16) return undefined;
      const v4 = parseIPv4(rest);
      if (!v4) return undefined;
      ip.splice(i, 4, ...v4);
      i += 4;
      rest = "";
      break;
    }
    ip[i] = n >> 8;
    ip[i + 1] = n & 0xff;
    i += 2;
    rest = rest.slice(j);
    if (rest.length === 0) break;
    if (rest[0] !== ":" || rest.length === 1) return undefined;
    rest = rest.slice(1);
    if (rest[0] === ":") {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      rest = rest.slice(1);
      if (rest.length === 0) break;
    }
  }
  if (rest.length !== 0) return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    const n = 16 - i;
    for (let k = i - 1; k >= ellipsis; k--) ip[k + n] = ip[k];
    for (let k = ellipsis + n - 1; k >= ellipsis; k--) ip[k] = 0;
  } else if (ellipsis >= 0) {
    return undefined;
  }
  return ip;
}

/** The address as 4 (IPv4) or 16 (IPv6) bytes, or undefined when it is not an IP (Go's ParseIP dispatch). */
export function parseIP(s: string): number[] | undefined {
  for (const c of s) {
    if (c === ".") return parseIPv4(s);
    if (c === ":") return parseIPv6(s);
  }
  return undefined;
}

export const isValidIP = (s: string) => parseIP(s) !== undefined;

/** The IPv4 form of an address (also of an IPv4-mapped IPv6 one), as Go's To4. */
function to4(ip: number[]): number[] | undefined {
  if (ip.length === 4) return ip;
  if (ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff) return ip.slice(12);
  return undefined;
}

export const isIPv6String = (s: string) => {
  const ip = parseIP(s);
  return ip !== undefined && to4(ip) === undefined;
};

/** IsValidIP. */
export function validateIP(value: string, path: string): FieldError[] {
  return isValidIP(value) ? [] : [field.invalid(path, value, IP_MSG)];
}

/** IsValidCIDR (ParseCIDRSloppy: `<ip>/<prefix length>`). */
export function validateCIDR(value: string, path: string): FieldError[] {
  const slash = value.indexOf("/");
  const ip = slash < 0 ? undefined : parseIP(value.slice(0, slash));
  const mask = slash < 0 ? undefined : decimalPrefix(value.slice(slash + 1));
  const ok = ip !== undefined && mask !== undefined && mask.len === value.length - slash - 1 && mask.n <= ip.length * 8;
  return ok ? [] : [field.invalid(path, value, CIDR_MSG)];
}

/** ValidateNonSpecialIP: endpoints and external IPs may not be unspecified, loopback or link-local. */
export function validateNonSpecialIP(value: string, path: string): FieldError[] {
  const ip = parseIP(value);
  if (!ip) return [field.invalid(path, value, "must be a valid IP address")];
  const errs: FieldError[] = [];
  const v4 = to4(ip);
  const unspecified = v4 ? v4.every((b) => b === 0) : ip.every((b) => b === 0);
  const loopback = v4 ? v4[0] === 127 : ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1;
  const linkLocalUnicast = v4 ? v4[0] === 169 && v4[1] === 254 : ip[0] === 0xfe && (ip[1] & 0xc0) === 0x80;
  const linkLocalMulticast = v4 ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0 : ip[0] === 0xff && (ip[1] & 0x0f) === 0x02;
  if (unspecified) errs.push(field.invalid(path, value, `may not be unspecified (${value})`));
  if (loopback) errs.push(field.invalid(path, value, "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
  if (linkLocalUnicast) errs.push(field.invalid(path, value, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
  if (linkLocalMulticast) errs.push(field.invalid(path, value, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"));
  return errs;
}

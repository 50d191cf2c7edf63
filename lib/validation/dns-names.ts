// DNS-style identifiers as apimachinery 1.32 checks them (IsDNS1123Label, IsDNS1123Subdomain, IsDNS1035Label),
// with its exact messages. Each `...Errors` function returns the messages (empty when valid); the
// `validate...` functions wrap them as Invalid field errors at a path.
import { field, type FieldError } from "../status";

export const DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
export const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
export const DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";

const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);

/** validation.RegexError: `<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')`. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e, i) => `${i > 0 ? " or " : ""}'${e}', `).join("")}regex used for validation is '${fmt}')`;
}

export const maxLenError = (n: number) => `must be no more than ${n} characters`;

/** Go's len(): UTF-8 bytes. */
export function byteLength(s: string): number {
  return new TextEncoder().encode(s).length;
}

const isLowerAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 122);

/** `DNS1123_SUBDOMAIN_FMT`, anchored; a hand-written scan so it is linear by construction (selectors parse hostile text). */
export function isDNS1123Subdomain(value: string): boolean {
  const s = String(value); // mistyped JSON reaches validators: read as text, as RegExp.test does
  let start = 0;
  for (let i = 0; i <= s.length; i++) {
    if (i < s.length && s.charCodeAt(i) !== 46) {
      const c = s.charCodeAt(i);
      if (!isLowerAlnum(c) && c !== 45) return false;
      continue;
    }
    // [start, i) is one dot-separated label: non-empty, alphanumeric at both ends.
    if (i === start || !isLowerAlnum(s.charCodeAt(start)) || !isLowerAlnum(s.charCodeAt(i - 1))) return false;
    start = i + 1;
  }
  return true;
}

const DNS1123_LABEL_ERR = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_ERR = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_ERR = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

export const DNS1123_LABEL_MSG = regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, "my-name", "123-abc");
export const DNS1123_SUBDOMAIN_MSG = regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, "example.com");
export const DNS1035_LABEL_MSG = regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, "my-name", "abc-123");

export function dns1123LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!DNS1123_LABEL.test(value)) {
    // A valid subdomain that is not a valid label (the length was checked above) must contain dots.
    errs.push(isDNS1123Subdomain(value) ? "must not contain dots" : DNS1123_LABEL_MSG);
  }
  return errs;
}

export function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!isDNS1123Subdomain(value)) errs.push(DNS1123_SUBDOMAIN_MSG);
  return errs;
}

export function dns1035LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!DNS1035_LABEL.test(value)) errs.push(DNS1035_LABEL_MSG);
  return errs;
}

export const validateDNS1123Label = (value: string, path: string): FieldError[] =>
  dns1123LabelErrors(value).map((m) => field.invalid(path, value, m));

export const validateDNS1123Subdomain = (value: string, path: string): FieldError[] =>
  dns1123SubdomainErrors(value).map((m) => field.invalid(path, value, m));

/** NameIsDNSSubdomain(name, prefix): a generateName prefix may end in '-'. */
export function dnsSubdomainNameErrors(name: string, prefix = false): string[] {
  return dns1123SubdomainErrors(prefix ? maskTrailingDash(name) : name);
}

/** NameIsDNS1035Label(name, prefix). */
export function dns1035NameErrors(name: string, prefix = false): string[] {
  return dns1035LabelErrors(prefix ? maskTrailingDash(name) : name);
}

/** NameIsDNSLabel(name, prefix) (namespaces). */
export function dnsLabelNameErrors(name: string, prefix = false): string[] {
  return dns1123LabelErrors(prefix ? maskTrailingDash(name) : name);
}

// apimachinery's maskTrailingDash replaces the last two characters with "a" (so the result is one shorter).
const maskTrailingDash = (name: string) => (name.length > 1 && name.endsWith("-") ? `${name.slice(0, -2)}a` : name);

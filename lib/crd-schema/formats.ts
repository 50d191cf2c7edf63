// The string formats a CustomResourceDefinition's schema may use (apiextensions' supported formats, checked by
// go-openapi's strfmt registry); any other format (int32, int64, float, double, ...) is stripped before
// validation and checks nothing. The checks follow strfmt's rules closely enough for the values users write;
// they are not byte-for-byte Go parsers.

const SUPPORTED = new Set([
  "bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac", "uuid", "uuid3", "uuid4", "uuid5",
  "isbn", "isbn10", "isbn13", "creditcard", "ssn", "hexcolor", "rgbcolor", "byte", "password", "date", "duration",
  "datetime", "date-time",
]);

export const isSupportedFormat = (format: string): boolean => SUPPORTED.has(format);

const HOSTNAME = /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DURATION = /^((\d+(\.\d+)?)\s*(ns|us|µs|ms|s|m|h|d|w|nanos?|nanoseconds?|micros?|microseconds?|millis?|milliseconds?|seconds?|minutes?|hours?|days?|weeks?)\s*)+$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const MAC = /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{4}\.){2}[0-9a-fA-F]{4}$|^([0-9a-fA-F]{2}[:-]){7}[0-9a-fA-F]{2}$/;
const EMAIL = /^[^\s@<>()]+@[^\s@<>()]+$/;
const BASE64 = /^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function validDate(y: string, m: string, d: string): boolean {
  const year = Number(y), month = Number(m), day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= days[month - 1];
}

function isIPv6(s: string): boolean {
  if (!s.includes(":")) return false;
  let text = s;
  const lastColon = text.lastIndexOf(":");
  if (IPV4.test(text.slice(lastColon + 1))) text = `${text.slice(0, lastColon + 1)}0:0`;
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const parts = halves.flatMap(groups);
  if (!parts.every((p) => /^[0-9a-fA-F]{1,4}$/.test(p))) return false;
  return halves.length === 2 ? parts.length < 8 : parts.length === 8;
}

function isURI(s: string): boolean {
  // Go's url.ParseRequestURI: an absolute URI or an absolute path, no fragment.
  if (s.startsWith("/")) return !s.includes("#") && !/\s/.test(s);
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/.test(s) && !s.includes("#");
}

/** Whether `value` is a valid `format` string (formats outside the supported set always are). */
export function formatValid(format: string, value: string): boolean {
  switch (format) {
    case "bsonobjectid": return /^[0-9a-fA-F]{24}$/.test(value);
    case "uri": return isURI(value);
    case "email": return EMAIL.test(value);
    case "hostname": return value.length <= 255 && HOSTNAME.test(value);
    case "ipv4": return IPV4.test(value);
    case "ipv6": return isIPv6(value);
    case "cidr": {
      const [ip, bits, ...rest] = value.split("/");
      if (rest.length || bits === undefined || !/^\d+$/.test(bits)) return false;
      return (IPV4.test(ip) && Number(bits) <= 32) || (isIPv6(ip) && Number(bits) <= 128);
    }
    case "mac": return MAC.test(value);
    case "uuid": return UUID.test(value);
    case "uuid3": return UUID3.test(value);
    case "uuid4": return UUID4.test(value);
    case "uuid5": return UUID5.test(value);
    case "isbn": return formatValid("isbn10", value) || formatValid("isbn13", value);
    case "isbn10": return /^(?:\d[- ]?){9}[\dXx]$/.test(value);
    case "isbn13": return /^(?:\d[- ]?){12}\d$/.test(value);
    case "creditcard": return /^(?:\d[ -]?){12,18}\d$/.test(value);
    case "ssn": return /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(value);
    case "hexcolor": return /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value);
    case "rgbcolor": return /^rgb\(\s*(25[0-5]|2[0-4]\d|1\d\d|\d{1,2})\s*,\s*(25[0-5]|2[0-4]\d|1\d\d|\d{1,2})\s*,\s*(25[0-5]|2[0-4]\d|1\d\d|\d{1,2})\s*\)$/.test(value);
    case "byte": return BASE64.test(value);
    case "password": return true;
    case "date": {
      const m = DATE.exec(value);
      return !!m && validDate(m[1], m[2], m[3]);
    }
    case "datetime":
    case "date-time": {
      const m = DATE_TIME.exec(value);
      return !!m && validDate(m[1], m[2], m[3]) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 61;
    }
    case "duration": return DURATION.test(value.trim());
    default: return true;
  }
}

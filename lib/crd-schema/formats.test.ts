import { describe, expect, it } from "vitest";
import { formatValid, isSupportedFormat } from "./formats";

describe("formats a CRD may use", () => {
  const cases: [string, string[], string[]][] = [
    ["date-time", ["2026-11-28T06:00:00Z", "2026-11-28T06:00:00.123+01:00"], ["2026-11-28", "2026-02-30T00:00:00Z", "yesterday"]],
    ["date", ["2024-02-29"], ["2023-02-29", "2024-13-01", "2024-1-1"]],
    ["duration", ["1h30m", "500ms", "3 days"], ["soon", "h1"]],
    ["uri", ["https://example.com/x", "/absolute/path", "mailto:a@b"], ["relative/path", "123", "http://x/#frag"]],
    ["email", ["a@example.com"], ["nope", "a b@c"]],
    ["hostname", ["example.com", "a-b.cd", "localhost"], ["-bad.com", "a..b"]],
    ["ipv4", ["10.0.0.1"], ["10.0.0.300", "1.2.3"]],
    ["ipv6", ["::1", "2001:db8::8a2e:370:7334", "::ffff:10.0.0.1"], ["1:2:3", "2001:db8::g"]],
    ["cidr", ["10.0.0.0/8", "2001:db8::/32"], ["10.0.0.0/33", "10.0.0.0"]],
    ["mac", ["00:1a:2b:3c:4d:5e"], ["00:1a:2b:3c:4d"]],
    ["uuid", ["123e4567-e89b-12d3-a456-426614174000"], ["123"]],
    ["uuid4", ["123e4567-e89b-42d3-a456-426614174000"], ["123e4567-e89b-12d3-a456-426614174000"]],
    ["byte", ["aGk=", ""], ["not base64!"]],
    ["hexcolor", ["#fff", "a0b1c2"], ["#ggg"]],
    ["password", ["anything at all"], []],
  ];
  for (const [format, good, bad] of cases) {
    it(format, () => {
      expect(isSupportedFormat(format)).toBe(true);
      for (const v of good) expect(formatValid(format, v), `${format} ${v}`).toBe(true);
      for (const v of bad) expect(formatValid(format, v), `${format} ${v}`).toBe(false);
    });
  }

  it("formats kube strips (int32, int64, float, double, unknown names) check nothing", () => {
    for (const f of ["int32", "int64", "float", "double", "my-format"]) expect(isSupportedFormat(f)).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { formatIP, IPRange, parseIP } from "./ip-range";
import { PortRange } from "./port-range";

describe("IPRange", () => {
  it("hands out neither the network nor the broadcast address of an IPv4 range", () => {
    const r = new IPRange("10.0.0.0/29");
    expect(r.size).toBe(6);
    expect(r.at(0)).toBe("10.0.0.1");
    expect(r.at(5)).toBe("10.0.0.6");
    expect(r.offsetOf("10.0.0.0")).toBeUndefined();
    expect(r.offsetOf("10.0.0.7")).toBeUndefined();
    expect(r.offsetOf("10.0.0.8")).toBeUndefined();
    expect(r.staticBand).toBe(0);
  });

  it("sizes kube's default range and its static band as kube does", () => {
    const r = new IPRange("10.96.0.0/12");
    expect(r.cidr).toBe("10.96.0.0/12");
    expect(r.size).toBe(2 ** 20 - 2);
    expect(r.staticBand).toBe(256);
    expect(new IPRange("10.96.0.0/24").staticBand).toBe(16);
    expect(r.offsetOf("10.111.255.254")).toBe(2 ** 20 - 3);
    expect(r.offsetOf("10.112.0.1")).toBeUndefined();
    expect(r.notInRange("1.1.1.1")).toBe("the provided IP (1.1.1.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12");
  });

  it("prints the network of a CIDR given with host bits, as Go does", () => {
    expect(new IPRange("10.96.3.4/12").cidr).toBe("10.96.0.0/12");
  });

  it("caps IPv6 ranges at 65536 addresses and formats addresses compressed", () => {
    const r = new IPRange("fd00:10:96::/108");
    expect(r.family).toBe("IPv6");
    expect(r.size).toBe(65535);
    expect(r.at(0)).toBe("fd00:10:96::1");
    expect(r.offsetOf("FD00:10:96:0::a")).toBe(9);
    expect(r.canonical("fd00:0010:0096:0000:0000:0000:0000:0001")).toBe("fd00:10:96::1");
  });

  it("parses and rejects addresses like Go's net.ParseIP", () => {
    expect(parseIP("256.1.1.1")).toBeUndefined();
    expect(parseIP("1.2.3")).toBeUndefined();
    expect(parseIP("::1:2:3:4:5:6:7:8")).toBeUndefined();
    expect(formatIP("IPv6", parseIP("::ffff:10.0.0.1")!.value)).toBe("::ffff:a00:1");
    expect(formatIP("IPv6", parseIP("1:0:0:1:0:0:0:1")!.value)).toBe("1:0:0:1::1");
  });
});

describe("PortRange", () => {
  it("prints and bounds the range as kube's messages show it", () => {
    const r = new PortRange(30000, 2768);
    expect(String(r)).toBe("30000-32767");
    expect(r.staticBand).toBe(86);
    expect(r.offsetOf(32767)).toBe(2767);
    expect(r.offsetOf(32768)).toBeUndefined();
    expect(r.notInRange()).toBe("provided port is not in the valid range. The range of valid ports is 30000-32767");
  });
});

import { describe, expect, it } from "vitest";
import { endpoints, type Endpoints } from "./endpoints";
import { create, created, templateOf, variant, type Row } from "./validation-harness";

const base = templateOf<Endpoints>(endpoints);
const subset0 = (ep: Endpoints) => ep.subsets![0];
const labelMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const rows: Row<Endpoints>[] = [
  ["no subsets at all", (ep) => { ep.subsets = []; }, null],
  ["a subset without addresses", (ep) => { ep.subsets = [{ ports: [{ port: 80 }] }]; },
    { field: "subsets[0]", reason: "FieldValueRequired", message: "Required value: must specify `addresses` or `notReadyAddresses`" }],
  ["only not-ready addresses and no ports (headless)", (ep) => { ep.subsets = [{ notReadyAddresses: [{ ip: "10.1.2.3" }] }]; }, null],
  ["an address that is not an IP", (ep) => { subset0(ep).addresses = [{ ip: "10.1.2" }]; }, [
    { field: "subsets[0].addresses[0].ip", reason: "FieldValueInvalid", message: 'Invalid value: "10.1.2": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)' },
    { field: "subsets[0].addresses[0].ip", reason: "FieldValueInvalid", message: 'Invalid value: "10.1.2": must be a valid IP address' },
  ]],
  ["a loopback address", (ep) => { subset0(ep).addresses = [{ ip: "127.0.0.1" }]; },
    { field: "subsets[0].addresses[0].ip", reason: "FieldValueInvalid", message: 'Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)' }],
  ["the unspecified address", (ep) => { subset0(ep).addresses = [{ ip: "0.0.0.0" }]; },
    { field: "subsets[0].addresses[0].ip", reason: "FieldValueInvalid", message: 'Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)' }],
  ["a link-local address", (ep) => { subset0(ep).notReadyAddresses = [{ ip: "169.254.1.1" }]; },
    { field: "subsets[0].notReadyAddresses[0].ip", reason: "FieldValueInvalid", message: 'Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)' }],
  ["a link-local multicast address", (ep) => { subset0(ep).addresses = [{ ip: "224.0.0.5" }]; },
    { field: "subsets[0].addresses[0].ip", reason: "FieldValueInvalid", message: 'Invalid value: "224.0.0.5": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)' }],
  ["an IPv6 address", (ep) => { subset0(ep).addresses = [{ ip: "2001:db8::1" }]; }, null],
  ["a hostname that is not a label", (ep) => { subset0(ep).addresses = [{ ip: "10.0.0.1", hostname: "Web" }]; },
    { field: "subsets[0].addresses[0].hostname", reason: "FieldValueInvalid", message: `Invalid value: "Web": ${labelMsg}` }],
  ["a node name with dots", (ep) => { subset0(ep).addresses = [{ ip: "10.0.0.1", nodeName: "node-1.example.com" }]; }, null],
  ["two ports without names", (ep) => { subset0(ep).ports = [{ port: 80 }, { name: "b", port: 81 }]; },
    { field: "subsets[0].ports[0].name", reason: "FieldValueRequired", message: "Required value" }],
  ["one port without a name", (ep) => { subset0(ep).ports = [{ port: 80 }]; }, null],
  ["port 0", (ep) => { subset0(ep).ports = [{ port: 0 }]; },
    { field: "subsets[0].ports[0].port", reason: "FieldValueInvalid", message: "Invalid value: 0: must be between 1 and 65535, inclusive" }],
  ["an unknown protocol", (ep) => { subset0(ep).ports = [{ port: 80, protocol: "HTTP" }]; },
    { field: "subsets[0].ports[0].protocol", reason: "FieldValueNotSupported", message: 'Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"' }],
];

describe("Endpoints validation", () => {
  it("accepts its template", () => expect(create(endpoints, base).causes).toEqual([]));

  it.each(rows)("%s", (_name, mutate, expected) => {
    expect(create(endpoints, variant(base, mutate)).causes).toEqual(expected === null ? [] : [expected].flat());
  });

  it("defaults port protocols to TCP", () => {
    const ep = created<Endpoints>(endpoints, variant(base, (e) => { subset0(e).ports = [{ port: 80 }]; }));
    expect(subset0(ep).ports).toEqual([{ port: 80, protocol: "TCP" }]);
  });
});

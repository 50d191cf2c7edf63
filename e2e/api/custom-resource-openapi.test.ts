// kubectl 1.32 reading the OpenAPI documents of a custom kind (issue 25 item 6): once a CRD is Established,
// /openapi/v3 lists its group version, `kubectl explain <plural>.spec` shows the schema's fields and descriptions,
// `kubectl create` of an object with an unknown field is refused with the strict-decoding error (kubectl finds the
// PATCH operation with fieldValidation and validates server-side), /openapi/v2 carries the definition, and after the
// CRD is deleted `kubectl explain` fails again.
import { beforeAll, describe, expect, test } from "vitest";
import { scratchFolder, startServer, waitFor, type Server } from "./harness";

let server: Server;
const scratch = scratchFolder("cluster-core-cr-openapi-");
const file = (name: string, text: string) => scratch.file(name, text);

const CRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: telescopes.optics.example.io
spec:
  group: optics.example.io
  scope: Namespaced
  names: {plural: telescopes, singular: telescope, kind: Telescope}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: A telescope pointed at the sky.
        properties:
          spec:
            type: object
            description: Where and how the telescope looks.
            required: [aperture]
            properties:
              aperture:
                type: integer
                description: Diameter of the main mirror in millimetres.
              target:
                type: string
                description: Name of the object to track.
`;

const UNKNOWN_FIELD = `
apiVersion: optics.example.io/v1
kind: Telescope
metadata: {name: hubble, namespace: default}
spec:
  aperture: 2400
  colour: grey
`;

beforeAll(async () => {
  server = await startServer();
}, 90_000);

describe("OpenAPI of custom kinds with kubectl", { timeout: 120_000 }, () => {
  test("explain before the CRD exists fails", async () => {
    const r = await server.kubectl(["explain", "telescopes.spec"], { allowFail: true });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("doesn't have a resource type \"telescopes\"");
  });

  test("an Established CRD is in /openapi/v3 and /openapi/v2; kubectl explain shows its fields", async () => {
    const applied = await server.kubectl(["apply", "-f", file("crd.yaml", CRD)]);
    expect(applied.code, applied.stderr).toBe(0);
    const waited = await server.kubectl(["wait", "--for", "condition=Established", "crd/telescopes.optics.example.io", "--timeout=20s"]);
    expect(waited.code, waited.stderr).toBe(0);

    const index = await waitFor("group version in /openapi/v3", async () => {
      const r = await server.request("GET", "/openapi/v3");
      return r.body?.paths?.["apis/optics.example.io/v1"];
    }, 5_000);
    expect(index.serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/optics\.example\.io\/v1\?hash=/);
    const v2 = await server.request("GET", "/openapi/v2");
    expect(v2.body.definitions["io.example.optics.v1.Telescope"].properties.spec.properties.aperture).toEqual({
      type: "integer", description: "Diameter of the main mirror in millimetres.",
    });

    const explained = await server.kubectl(["explain", "telescopes.spec"]);
    expect(explained.code, explained.stderr).toBe(0);
    expect(explained.stdout).toContain("GROUP:      optics.example.io");
    expect(explained.stdout).toContain("KIND:       Telescope");
    expect(explained.stdout).toMatch(/aperture\s+<integer> -required-\n\s+Diameter of the main mirror in millimetres\./);
    expect(explained.stdout).toMatch(/target\s+<string>\n\s+Name of the object to track\./);
    expect(explained.stdout).toContain("Where and how the telescope looks.");
  });

  test("kubectl's default strict validation refuses an unknown field", async () => {
    const r = await server.kubectl(["create", "-f", file("hubble.yaml", UNKNOWN_FIELD)], { allowFail: true });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('strict decoding error: unknown field "spec.colour"');
    expect((await server.kubectl(["get", "telescopes", "-A", "-o", "name"])).stdout.trim()).toBe("");
  });

  test("after the CRD is deleted, explain fails again and the documents drop it", async () => {
    const deleted = await server.kubectl(["delete", "crd", "telescopes.optics.example.io", "--timeout=30s"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    await waitFor("group version gone from /openapi/v3", async () => {
      const r = await server.request("GET", "/openapi/v3");
      return r.body?.paths?.["apis/optics.example.io/v1"] === undefined ? true : undefined;
    }, 10_000);
    expect((await server.request("GET", "/openapi/v3/apis/optics.example.io/v1")).status).toBe(404);
    const v2 = await server.request("GET", "/openapi/v2");
    expect(v2.body.definitions["io.example.optics.v1.Telescope"]).toBeUndefined();
    const r = await waitFor("explain fails", async () => {
      const x = await server.kubectl(["explain", "telescopes.spec"], { allowFail: true });
      return x.code !== 0 ? x : undefined;
    }, 10_000, 500);
    // Depending on whether kubectl's discovery cache still lists the kind, it fails at discovery or at the
    // OpenAPI lookup; either way, because the kind is gone.
    expect(r.stderr).toMatch(/doesn't have a resource type "telescopes"|couldn't find resource for "optics\.example\.io\/v1, Resource=telescopes"/);
  });
});

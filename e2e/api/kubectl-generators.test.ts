// kubectl's imperative generators send protobuf bodies (create configmap/secret/service/serviceaccount/quota)
// or JSON (run); all of them must work unchanged.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNamespaces, startServer, stopAll, type Server } from "./harness";

let server: Server;
beforeAll(async () => {
  server = await startServer();
  await createNamespaces(server, "generators", "generators-quota");
}, 90_000);
afterAll(async () => { await stopAll(); }, 60_000);

// The quota gets a namespace of its own: its requests.cpu would make quota admission refuse the pod that
// `kubectl run` sends without resources ("must specify requests.cpu"), as on a real cluster.
const nsOf = (label: string) => ["-n", label === "quota" ? "generators-quota" : "generators"];

describe("kubectl imperative commands", () => {
  test.each([
    ["configmap", ["create", "configmap", "settings", "--from-literal=mode=fast"], "configmaps", "settings", (o: any) => expect(o.data).toEqual({ mode: "fast" })],
    ["secret", ["create", "secret", "generic", "db", "--from-literal=password=s3cret"], "secrets", "db", (o: any) => expect(Buffer.from(o.data.password, "base64").toString()).toBe("s3cret")],
    ["service", ["create", "service", "clusterip", "web", "--tcp=80:8080"], "services", "web", (o: any) => expect(o.spec.ports[0]).toMatchObject({ port: 80, targetPort: 8080, protocol: "TCP" })],
    ["serviceaccount", ["create", "serviceaccount", "robot"], "serviceaccounts", "robot", (o: any) => expect(o.metadata.name).toBe("robot")],
    ["quota", ["create", "quota", "small", "--hard=pods=3,requests.cpu=1"], "resourcequotas", "small", (o: any) => expect(o.spec.hard).toEqual({ pods: "3", "requests.cpu": "1" })],
    ["run", ["run", "nginx", "--image=nginx:1.27", "--labels=app=nginx"], "pods", "nginx", (o: any) => expect(o.spec.containers[0].image).toBe("nginx:1.27")],
  ])("kubectl %s creates the object", async (label, args, plural, name, check) => {
    const NS = nsOf(label);
    const created = await server.kubectl([...args, ...NS]);
    expect(created.code, created.stderr).toBe(0);
    const got = await server.kubectl(["get", plural, name, ...NS, "-o", "json"]);
    expect(got.code, got.stderr).toBe(0);
    check(JSON.parse(got.stdout));
  });
});

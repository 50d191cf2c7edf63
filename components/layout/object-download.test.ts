import { describe, expect, it } from "vitest";
import { kindByPlural, type KubeObject } from "@/lib/kinds";
import { objectForDownload, objectYaml, yamlFileName } from "./object-download";

const pods = kindByPlural("pods")!;

describe("object download", () => {
  it("strips managedFields and puts apiVersion and kind first, as kubectl prints", () => {
    const obj = {
      metadata: { name: "web", namespace: "shop", managedFields: [{ manager: "kubectl" }], labels: { app: "web" } },
      spec: { containers: [{ name: "a", image: "nginx" }] },
    } as unknown as KubeObject;
    const out = objectForDownload(pods, obj);
    expect(Object.keys(out).slice(0, 3)).toEqual(["apiVersion", "kind", "metadata"]);
    expect(out.metadata).toEqual({ name: "web", namespace: "shop", labels: { app: "web" } });
    const text = objectYaml(pods, obj);
    expect(text.startsWith("apiVersion: v1\nkind: Pod\n")).toBe(true);
    expect(text).not.toContain("managedFields");
    expect(text).toContain("image: nginx");
  });

  it("names the file after the object", () => {
    expect(yamlFileName({ metadata: { name: "web-1" } } as KubeObject)).toBe("web-1.yaml");
    expect(yamlFileName({ metadata: { name: "a:b" } } as KubeObject)).toBe("a_b.yaml");
  });
});

import { describe, expect, it } from "vitest";
import { kinds } from "../../kinds";
import type { KubeObject } from "../../kinds/types";
import type { ListAnswer } from "../../registry/registry";
import { JSON_FORMAT } from "../media";
import { listResponse } from "./list";

const cm = kinds.find((k) => k.plural === "configmaps")!;
const item = (object: KubeObject, json = JSON.stringify(object)) => ({ key: { namespace: "d", name: object.metadata.name! }, rev: 1, object, json });
const answer = (items: ReturnType<typeof item>[]): ListAnswer => ({ kind: cm, resourceVersion: "7", items: items as ListAnswer["items"] });

describe("JSON lists", () => {
  // kube-apiserver's list items carry no type meta (kubernetes#3030): `kubectl get --raw` shows none.
  it("answer items without kind and apiVersion, whatever order the stored serialisation has", () => {
    const lead = { kind: "ConfigMap", apiVersion: "v1", metadata: { name: "a", namespace: "d" }, data: { k: "v" } } as KubeObject;
    const trailing = { metadata: { name: "b", namespace: "d" }, apiVersion: "v1", kind: "ConfigMap" } as KubeObject;
    const res = listResponse(answer([item(lead), item(trailing)]), JSON_FORMAT, false, "Object");
    const body = JSON.parse(String(res.body));
    expect(body.kind).toBe("ConfigMapList");
    expect(body.items).toEqual([{ metadata: { name: "a", namespace: "d" }, data: { k: "v" } }, { metadata: { name: "b", namespace: "d" } }]);
    const pretty = JSON.parse(String(listResponse(answer([item(lead)]), { ...JSON_FORMAT, pretty: true }, true, "Object").body));
    expect(pretty.items[0]).not.toHaveProperty("kind");
  });
});

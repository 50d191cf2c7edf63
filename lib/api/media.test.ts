// Content negotiation against kube-apiserver 1.32's rules (handlers/negotiation + goautoneg): serializer
// order, q-values and goautoneg's ordering quirk, wildcards, conversions per endpoint, stream and sv
// parameters, the 406s, and how errors are negotiated.
import { describe, expect, it } from "vitest";
import { StatusError } from "../status";
import { ACTION_ENDPOINT, negotiate, negotiateError, parseAccept, PLAIN_ENDPOINT, RESOURCE_ENDPOINT } from "./media";

const OFFERED = "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf";
const OFFERED_WATCH = "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch";
const METADATA_CLIENT_LIST = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
const KUBECTL_GET = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

function notAcceptable(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).code).toBe(406);
    expect((err as StatusError).reason).toBe("NotAcceptable");
    return (err as StatusError).message;
  }
  throw new Error("expected a 406");
}

describe("negotiate (resource endpoints)", () => {
  it.each([
    [undefined, "json"],
    ["", "json"],
    ["*/*", "json"],
    ["application/*", "json"],
    ["*", "json"],
    ["application/json", "json"],
    ["application/yaml", "yaml"],
    ["application/vnd.kubernetes.protobuf", "protobuf"],
    ["application/vnd.kubernetes.protobuf,application/json", "protobuf"],
    ["application/vnd.kubernetes.protobuf, */*", "protobuf"],
    ["text/html, application/yaml", "yaml"],
    ["application/json;q=0.5, application/vnd.kubernetes.protobuf", "protobuf"],
    ["application/yaml;q=0.9, application/json;q=0.8", "yaml"],
    ["application/json;q=0.8, application/yaml;q=0.9", "yaml"],
    // Equal q: the header's order.
    ["application/yaml;q=0.5, application/json;q=0.5", "yaml"],
    // 1.32 does not treat q=0 as a refusal.
    ["application/yaml;q=0", "yaml"],
    // A malformed q parses as 0 (Go's ParseFloat error is ignored).
    ["application/yaml;q=high, application/json;q=0.1", "json"],
    ["application/json; charset=utf-8", "json"],
    ["application/json;stream=watch", "json"],
    ["application/json;pretty=1", "json"],
  ])("%s -> %s", (accept, media) => {
    expect(negotiate(accept).media).toBe(media);
  });

  it("goautoneg puts a concrete type before a wildcard whatever their q-values", () => {
    expect(parseAccept("*/*;q=0.9, application/yaml;q=0.1").map((c) => `${c.type}/${c.subType}`)).toEqual(["application/yaml", "*/*"]);
    expect(negotiate("*/*;q=0.9, application/yaml;q=0.1").media).toBe("yaml");
    expect(negotiate("application/*;q=1, application/vnd.kubernetes.protobuf;q=0.2").media).toBe("protobuf");
  });

  it("types and parameter names are case-sensitive; spaces around parameters are trimmed", () => {
    expect(notAcceptable(() => negotiate("Application/JSON"))).toBe(OFFERED);
    expect(negotiate("application/json; as=Table; g=meta.k8s.io; v=v1")).toEqual({ media: "json", as: "Table", asVersion: "v1", pretty: false });
    // An unknown parameter is ignored, but g and v alone ask for a conversion to no kind: skipped.
    expect(negotiate("application/json;AS=Table, application/yaml")).toEqual({ media: "json", pretty: false });
    expect(notAcceptable(() => negotiate("application/json;AS=Table;g=meta.k8s.io;v=v1"))).toBe(OFFERED);
  });

  it("nothing acceptable is kube's 406, naming the offered types", () => {
    for (const accept of ["text/html", "application/xml, text/plain", "application", "a/b/c", " "]) {
      expect(notAcceptable(() => negotiate(accept))).toBe(OFFERED);
    }
  });

  it("conversions: Table in JSON or YAML only, PartialObjectMetadata[List] in any, meta.k8s.io v1 or v1beta1 only", () => {
    expect(negotiate(KUBECTL_GET)).toEqual({ media: "json", as: "Table", asVersion: "v1", pretty: false });
    expect(negotiate("application/yaml;as=Table;g=meta.k8s.io;v=v1beta1")).toEqual({ media: "yaml", as: "Table", asVersion: "v1beta1", pretty: false });
    expect(negotiate(METADATA_CLIENT_LIST)).toEqual({ media: "protobuf", as: "PartialObjectMetadataList", asVersion: "v1", pretty: false });
    expect(negotiate("application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1, application/json").media).toBe("json");
    expect(notAcceptable(() => negotiate("application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1"))).toBe(OFFERED);
    for (const skipped of ["application/json;as=Table", "application/json;as=Table;g=meta.k8s.io;v=v2", "application/json;as=Table;g=apps;v=v1",
      "application/json;as=Deployment;g=meta.k8s.io;v=v1", "application/json;g=meta.k8s.io;v=v1"]) {
      expect(negotiate(`${skipped}, application/yaml`)).toEqual({ media: "yaml", pretty: false });
    }
  });

  it("the server-version and stream parameters", () => {
    expect(negotiate("application/json;sv=v1").media).toBe("json");
    expect(negotiate("application/json;sv=v2, application/yaml").media).toBe("yaml");
    expect(negotiate("application/yaml;stream=watch, application/vnd.kubernetes.protobuf;stream=watch").media).toBe("protobuf");
    expect(negotiate("application/json;stream=other, application/yaml").media).toBe("yaml");
    expect(negotiate("application/json;pretty=1").pretty).toBe(true);
  });

  it("watches need a stream serializer: YAML is a 406 naming the stream types", () => {
    expect(negotiate("application/vnd.kubernetes.protobuf", { watch: true }).media).toBe("protobuf");
    expect(negotiate("application/vnd.kubernetes.protobuf;stream=watch", { watch: true }).media).toBe("protobuf");
    expect(notAcceptable(() => negotiate("application/yaml", { watch: true }))).toBe(OFFERED_WATCH);
    // The first acceptable clause decides; a later JSON does not rescue it (kube negotiates once, then checks).
    expect(notAcceptable(() => negotiate("application/yaml, application/json", { watch: true }))).toBe(OFFERED_WATCH);
    expect(notAcceptable(() => negotiate("text/html", { watch: true }))).toBe(OFFERED);
  });

  it("endpoints: create-only ones have no Table; kinds without protobuf declarations fall back", () => {
    expect(negotiate("application/json;as=Table;g=meta.k8s.io;v=v1, application/yaml", { endpoint: ACTION_ENDPOINT }).media).toBe("yaml");
    expect(negotiate("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", { endpoint: ACTION_ENDPOINT }).as).toBe("PartialObjectMetadata");
    const noProtobuf = { ...RESOURCE_ENDPOINT, protobuf: false };
    expect(negotiate("application/vnd.kubernetes.protobuf,application/json", { endpoint: noProtobuf }).media).toBe("json");
    expect(negotiate(METADATA_CLIENT_LIST, { endpoint: noProtobuf }).media).toBe("protobuf");
    expect(notAcceptable(() => negotiate("application/json;as=Table;g=meta.k8s.io;v=v1", { endpoint: PLAIN_ENDPOINT }))).toBe(OFFERED);
  });
});

describe("negotiateError (kube's ErrorNegotiated: no conversions)", () => {
  it.each([
    [undefined, "json"],
    ["application/vnd.kubernetes.protobuf,application/json", "protobuf"],
    ["application/yaml", "yaml"],
    [METADATA_CLIENT_LIST, "json"],
    [KUBECTL_GET, "json"],
    ["application/json;as=Table;g=meta.k8s.io;v=v1", undefined],
    ["application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", undefined],
    ["text/html", undefined],
    ["application/json;sv=v1", undefined],
  ])("%s -> %s", (accept, media) => {
    expect(negotiateError(accept)).toBe(media);
  });
});

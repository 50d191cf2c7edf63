// The metadata-only views of one object (`as=PartialObjectMetadata`), and kube's 406 for a conversion that
// does not fit the answer.
import { encodeUnknown, partialObjectMetadataBytes } from "../../codec/protobuf";
import type { KubeObject } from "../../kinds/types";
import { errors } from "../../status";
import type { OutputFormat } from "../media";
import type { ApiResponse } from "../types";
import { partialMetadata } from "./table";
import { encodeValue } from "./value";

/** The package of the internal Go type kube-apiserver names in conversion errors (`core` for `*core.PodList`). */
export function goPackage(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "core" : apiVersion.slice(0, slash).split(".")[0];
}

/**
 * An object's `as=PartialObjectMetadata` view; `as=PartialObjectMetadataList` of one object is kube's 406.
 * `goType` names the object as kube's message does; `immutable`: the store's own object (its encoding is kept).
 */
export function metadataView(obj: KubeObject, goType: string, format: OutputFormat, pretty: boolean, immutable: boolean): ApiResponse["body"] {
  if (format.as === "PartialObjectMetadataList") {
    throw errors.conversionNotAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (*${goType})`);
  }
  const version = format.asVersion ?? "v1";
  if (format.media === "protobuf") return encodeUnknown(`meta.k8s.io/${version}`, "PartialObjectMetadata", partialObjectMetadataBytes(obj, immutable));
  return encodeValue(partialMetadata(obj, version), format.media, pretty);
}

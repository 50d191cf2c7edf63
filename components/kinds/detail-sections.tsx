"use client";
// Sections only one kind needs, keyed by kind name, so the generic object page never names a kind. A kind
// without an entry shows its content as YAML; `keepContent` shows that YAML too, below the section, for
// kinds whose section covers only part of the spec.
import type { ComponentType } from "react";
import type { KubeObject } from "@/lib/kinds";
import { EndpointsDetails } from "./endpoints/endpoint-addresses";
import { LimitRangeTable } from "./limit-range/limit-range-table";
import { VolumeBinding } from "./persistent-volume/volume-binding";
import { ClaimBinding } from "./persistent-volume-claim/claim-binding";
import { PodSecurity } from "./pod/pod-security";
import { QuotaBars } from "./resource-quota/quota-bars";
import { SecretData } from "./secret/secret-data";
import { ServiceDetails } from "./service/service-details";

export interface DetailSection {
  title: string;
  Component: ComponentType<{ obj: KubeObject }>;
  keepContent?: boolean;
}

export const detailSections: Record<string, DetailSection> = {
  Secret: { title: "Data", Component: ({ obj }) => <SecretData data={obj.data as Record<string, string> | undefined} /> },
  Service: { title: "Service", Component: ServiceDetails, keepContent: true },
  Endpoints: { title: "Addresses", Component: EndpointsDetails },
  PersistentVolumeClaim: { title: "Binding", Component: ClaimBinding, keepContent: true },
  PersistentVolume: { title: "Binding", Component: VolumeBinding, keepContent: true },
  Pod: { title: "Security", Component: PodSecurity, keepContent: true },
  ResourceQuota: { title: "Usage", Component: ({ obj }) => <QuotaBars quota={obj} /> },
  LimitRange: { title: "Limits", Component: ({ obj }) => <LimitRangeTable limitRange={obj} /> },
};

"use client";
// Sections only one kind needs, keyed by kind name, so the generic object page never names a kind. The
// section is the first thing on the kind's page, before the metadata (a Service's type, IPs and ports, a
// Pod's status and containers): what a person opens the page for. A kind without an entry shows its content
// as YAML in that place; `keepContent` shows that YAML too, below the metadata, for kinds whose section
// covers only part of the spec. A section without a title renders its own sections (the pod page);
// `coversStatus` leaves out the generic Status panel, the section showing status itself.
import type { ComponentType } from "react";
import { kindByPlural, type AnyKind, type KubeObject } from "@/lib/kinds";
import { CrdDetails } from "./custom-resource-definition/crd-details";
import { EndpointsDetails } from "./endpoints/endpoint-addresses";
import { LimitRangeTable } from "./limit-range/limit-range-table";
import { VolumeBinding } from "./persistent-volume/volume-binding";
import { ClaimBinding } from "./persistent-volume-claim/claim-binding";
import { PodDetails } from "./pod/pod-details";
import { SccDetails } from "./security-context-constraints/scc-details";
import { ServiceAccountDetails } from "./service-account/service-account-details";
import { QuotaBars } from "./resource-quota/quota-bars";
import { SecretData } from "./secret/secret-data";
import { SecretYaml } from "./secret/secret-yaml";
import { ServiceDetails } from "./service/service-details";
import { Section } from "../resource-details/section";

export interface DetailSection {
  title: string;
  Component: ComponentType<{ obj: KubeObject; now?: number }>;
  keepContent?: boolean;
  coversStatus?: boolean;
  /** The YAML tab, when the kind's YAML cannot be edited as the page holds it (a Secret's, masked). */
  YamlTab?: ComponentType<{ kind: AnyKind; live: KubeObject; readOnlyReason?: string }>;
}

export const detailSections: Record<string, DetailSection> = {
  Secret: { title: "Data", Component: ({ obj }) => <SecretData kind={kindByPlural("secrets")!} obj={obj} />, YamlTab: SecretYaml },
  Service: { title: "Service", Component: ServiceDetails, keepContent: true },
  Endpoints: { title: "Addresses", Component: EndpointsDetails },
  PersistentVolumeClaim: { title: "Binding", Component: ClaimBinding, keepContent: true },
  PersistentVolume: { title: "Binding", Component: VolumeBinding, keepContent: true },
  Pod: { title: "", Component: PodDetails, keepContent: true, coversStatus: true },
  ServiceAccount: { title: "Service account", Component: ServiceAccountDetails, keepContent: true },
  SecurityContextConstraints: { title: "Strategies", Component: SccDetails },
  ResourceQuota: { title: "Usage", Component: ({ obj }) => <QuotaBars quota={obj} /> },
  LimitRange: { title: "Limits", Component: ({ obj }) => <LimitRangeTable limitRange={obj} /> },
  CustomResourceDefinition: { title: "", Component: CrdDetails, coversStatus: true },
};

/** The kind's own section on the object page (nothing for a kind without one). */
export function KindSection({ kindName, obj, now }: { kindName: string; obj: KubeObject; now: number }) {
  const section = detailSections[kindName];
  if (!section) return null;
  const { Component, title } = section;
  if (!title) return <Component obj={obj} now={now} />;
  return (
    <Section title={title} testId="data">
      <Component obj={obj} now={now} />
    </Section>
  );
}

"use client";
// Sections only one kind needs, keyed by kind name, so the generic object page never names a kind. A kind
// without an entry shows its content as YAML.
import type { ComponentType } from "react";
import type { KubeObject } from "@/lib/kinds";
import { SecretData } from "./secret/secret-data";

export interface DetailSection {
  title: string;
  Component: ComponentType<{ obj: KubeObject }>;
}

export const detailSections: Record<string, DetailSection> = {
  Secret: { title: "Data", Component: ({ obj }) => <SecretData data={obj.data as Record<string, string> | undefined} /> },
};

"use client";
// A ServiceAccount's credentials as links: the Secrets it lists, its image pull secrets and, live, the legacy
// token Secrets annotated with its name (the pods that run as it are listed under Related).
import { useMemo } from "react";
import { tokenSecretsOf } from "@/lib/client/relations";
import { useResourceList } from "@/lib/client/use-resource-list";
import { kindByPlural, type KubeObject } from "@/lib/kinds";
import { FieldList, LoadNote, Muted, ObjectLink } from "../field-list";

type Loose = Record<string, any>;

const secretKind = kindByPlural("secrets");

function SecretLinks({ names, namespace, testId }: { names: string[]; namespace?: string; testId: string }) {
  if (names.length === 0) return <Muted>none</Muted>;
  return (
    <ul className="flex flex-wrap gap-x-3" data-testid={testId}>
      {names.map((n) => (
        <li key={n}>
          <ObjectLink kind="Secret" namespace={namespace} name={n} />
        </li>
      ))}
    </ul>
  );
}

export function ServiceAccountDetails({ obj }: { obj: KubeObject }) {
  const namespace = obj.metadata.namespace;
  const sa = obj as Loose;
  const secrets = useResourceList(secretKind, { namespace });
  const tokens = useMemo(() => (secrets.data ? tokenSecretsOf(obj, secrets.data.items.values()) : undefined), [secrets.data, obj]);
  const names = (list: unknown) => ((list ?? []) as Loose[]).map((r) => r.name).filter(Boolean) as string[];
  return (
    <div data-testid="service-account-details">
      <FieldList
        fields={[
          ["Secrets", <SecretLinks key="s" names={names(sa.secrets)} namespace={namespace} testId="sa-secrets" />],
          ["Image pull secrets", <SecretLinks key="p" names={names(sa.imagePullSecrets)} namespace={namespace} testId="sa-pull-secrets" />],
          [
            "Token Secrets",
            tokens ? <SecretLinks names={tokens.map((t) => t.metadata.name ?? "")} namespace={namespace} testId="sa-token-secrets" /> : <LoadNote error={secrets.error} loading={!secrets.error} what="Token Secrets" />,
          ],
          ["Automount token", sa.automountServiceAccountToken === false ? "no (pods must ask for it)" : "yes, unless a pod says otherwise"],
          ["User name", <span key="u" className="font-mono text-xs">system:serviceaccount:{namespace}:{obj.metadata.name}</span>],
        ]}
      />
    </div>
  );
}

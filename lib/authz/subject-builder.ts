// How the bootstrap tables spell a binding's subject, as kube's binding builder writes it: users and groups
// carry the RBAC apiGroup, service accounts a namespace and no apiGroup.
import { RBAC_GROUP, type Subject } from "./rbac-objects";

export const user = (name: string): Subject => ({ apiGroup: RBAC_GROUP, kind: "User", name });
export const group = (name: string): Subject => ({ apiGroup: RBAC_GROUP, kind: "Group", name });
export const serviceAccount = (namespace: string, name: string): Subject => ({ kind: "ServiceAccount", name, namespace });

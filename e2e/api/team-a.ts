// The people of the authorization tests, from kube's token file (TOKEN_AUTH_FILE): alice (groups
// team-a-devs and people), admin of namespace team-a through a RoleBinding, and bob, who may do nothing
// until a test binds him.
import { writeFileSync } from "node:fs";
import path from "node:path";

export const ALICE = "alice-token-0123456789abcdef";
export const BOB = "bob-token-0123456789abcdef01";

/** Writes the token file naming alice and bob into `dir`; returns its path. */
export function writeTeamTokens(dir: string): string {
  const file = path.join(dir, "tokens.csv");
  writeFileSync(file, `${ALICE},alice,uid-alice,"team-a-devs,people"\n${BOB},bob,uid-bob\n`);
  return file;
}

/** Namespace team-a and alice's admin RoleBinding in it: YAML documents for `kubectl apply`. */
export const TEAM_A_WITH_ALICE_ADMIN = `
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-admin, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin}
subjects: [{kind: User, name: alice, apiGroup: rbac.authorization.k8s.io}]
`;

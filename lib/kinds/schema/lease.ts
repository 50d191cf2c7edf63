// Lease (coordination.k8s.io/v1): a lock with a holder and an expiry, used for leader election and heartbeats.
import { microTime, int, obj, str } from "./schema";
import { resource, type ApiGroupNaming } from "./resource";

export const COORDINATION_GROUP = "coordination.k8s.io";

/** `io.k8s.api.coordination.v1.<Type>` (Go package k8s.io/api/coordination/v1). */
const coordinationType = (type: string) => `io.k8s.api.coordination.v1.${type}`;

export const coordinationApi: ApiGroupNaming = { group: COORDINATION_GROUP, typeName: coordinationType };

/** kube's swagger text of `holderIdentity`, which its Holder column reuses. */
export const HOLDER_IDENTITY_DESCRIPTION =
  "holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.";

const leaseSpec = obj(
  {
    acquireTime: microTime({ description: "When the current holder acquired the lease." }),
    holderIdentity: str({ description: HOLDER_IDENTITY_DESCRIPTION }),
    leaseDurationSeconds: int({ description: "How long candidates wait, after the last observed renewTime, before they may take the lease." }),
    leaseTransitions: int({ description: "How many times the lease changed holders." }),
    preferredHolder: str({ description: "A better holder the current one should hand over to; only with `strategy`." }),
    renewTime: microTime({ description: "When the current holder last renewed the lease." }),
    strategy: str({ description: "How coordinated leader election picks the holder (OldestEmulationVersion); unset means no coordination." }),
  },
  { name: coordinationType("LeaseSpec"), description: "Who holds the lease, since when, and for how long." },
);

export const leaseSchema = resource(
  "Lease",
  { spec: leaseSpec },
  { description: "A lease: the holder of a lock (leader election, node heartbeats) and until when it holds it.", api: coordinationApi },
);

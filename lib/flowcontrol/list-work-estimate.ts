// What a LIST costs, as kube-apiserver's API Priority and Fairness estimates it (list_work_estimator.go):
// its width in seats from the objects it will touch (one seat per 100 objects, at least 1, at most 100), and
// the memory its answer holds while in flight (the objects' bytes, at most 1 MB for an answer streamed from the
// watch cache, kube's cacheWithStreamingMaxMemoryUsage).

/** kube's defaults: ObjectsPerSeat, MaximumListSeatsLimit, cacheWithStreamingMaxMemoryUsage. */
export const OBJECTS_PER_SEAT = 100;
export const MAX_LIST_SEATS = 100;
export const STREAMED_LIST_BYTES = 1_000_000;

export interface ListRequest {
  /** Objects of the resource in the cache, and their serialised bytes (all namespaces, as kube's stats). */
  objects: number;
  bytes: number;
  /** `limit` (0: none). */
  limit: number;
  /** A label or field selector (every object is visited to fill a page). */
  selective: boolean;
  /** One object named (a `metadata.name` field selector): served as a get. */
  single: boolean;
}

export interface ListWork {
  seats: number;
  /** Bytes of memory the answer may hold in flight. */
  memory: number;
}

export function listWorkEstimate(req: ListRequest): ListWork {
  if (req.single) return { seats: 1, memory: req.objects ? Math.ceil(req.bytes / req.objects) : 0 };
  // A page without selectors stops at its limit; with them the cache is scanned until the page fills.
  const touched = req.limit > 0 && !req.selective ? Math.min(req.limit, req.objects) : req.objects;
  const answered = req.limit > 0 ? Math.min(req.limit, req.objects) : req.objects;
  const average = req.objects ? req.bytes / req.objects : 0;
  return {
    seats: Math.min(MAX_LIST_SEATS, Math.max(1, Math.ceil(touched / OBJECTS_PER_SEAT))),
    memory: Math.min(STREAMED_LIST_BYTES, Math.ceil(answered * average)),
  };
}

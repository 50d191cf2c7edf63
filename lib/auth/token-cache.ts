// Token -> identity cache, as kube-apiserver's cachedTokenAuthenticator (k8s.io/apiserver token/cache, wired
// by pkg/kubeapiserver/authenticator with a 10 s success TTL and no failure caching): a token seen in the last
// few seconds is answered from memory instead of being verified again. Entries are keyed by an HMAC-SHA256 of
// the token under a random per-process key, never by the token itself, so the map holds nothing a heap dump
// could replay. An entry ends at the earlier of its TTL and the token's own expiry, and is dropped at once when
// an object it was checked against (the ServiceAccount, its bound Secret, Pod or Node) changes or goes, which
// is stricter than kube's 10 s. Concurrent misses of one token share one verification, as kube's do.
import { tokenDigest, type TokenDigest } from "./token-digest";

/** kube-apiserver's --authentication-token-success-cache-ttl default. */
export const TOKEN_SUCCESS_TTL_MS = 10_000;
/** Entries kept at most; beyond it the oldest go (kube keeps 32 stripes of 128 LRU entries: 4,096). */
export const TOKEN_CACHE_MAX = 4096;

/** A verification's answer, and whether (and how long, and against what) it may be kept. */
export interface Verified<T> {
  value: T;
  /** A success: kept. A failure is answered to the callers waiting for it, then forgotten. */
  keep: boolean;
  /** When the token itself stops being valid (ms since the epoch); undefined: no expiry of its own. */
  expiresAtMs?: number;
  /** Objects the answer depends on, as `resource/namespace/name`: a change to any of them drops the entry. */
  dependsOn?: readonly string[];
}

/** A kept answer, as handed out by `peekEntry`. */
export interface CachedAnswer<T> {
  readonly value: T;
  /** Whether the cache still answers with it: not dropped (forgotten, evicted, replaced, cleared) nor past its time. */
  valid(): boolean;
}

class Entry<T> implements CachedAnswer<T> {
  /** Cleared when the cache drops the entry, whatever the reason. */
  live = true;

  constructor(readonly value: T, readonly until: number, readonly dependsOn: readonly string[], private readonly now: () => number) {}

  valid(): boolean {
    return this.live && this.until > this.now();
  }
}

/** Forgotten dependencies remembered while verifications are in flight; beyond it, every one in flight is dropped. */
const FORGOTTEN_IN_FLIGHT_MAX = 10_000;

export const dependencyKey = (resource: string, namespace: string, name: string) => `${resource}/${namespace}/${name}`;

export class TokenCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Dependency -> the entry keys that depend on it. */
  private readonly dependents = new Map<string, Set<string>>();
  private readonly inflight = new Map<string, Promise<Verified<T>>>();
  /** Bumped by every `forget` and `clear`. */
  private generation = 0;
  /**
   * While verifications are in flight: the generation at which each dependency was last forgotten, so that a
   * verification overtaken by a change to an object it read is answered but not kept (and one overtaken only by
   * changes to other objects, the usual case in a busy cluster, still is). Emptied when nothing is in flight.
   */
  private readonly forgottenAt = new Map<string, number>();
  /** A `clear`, or more forgets in flight than forgottenAt keeps: nothing that started before is kept. */
  private allForgottenAt = -1;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = TOKEN_SUCCESS_TTL_MS,
    private readonly max = TOKEN_CACHE_MAX,
    /** The keyed digest entries are filed under (the caller's, when it digests the token anyway). */
    private readonly digest: TokenDigest = tokenDigest(),
  ) {}

  /** The cached value for `token`, else `verify(token)`'s (kept when it says so; a throw is never kept). */
  get(token: string, verify: (token: string) => Promise<Verified<T>>): Promise<T> {
    return this.getDigested(this.digest(token), token, verify);
  }

  /**
   * The value kept for a digest while it is good, else undefined: `getDigested`'s hit, answered synchronously
   * (the request path takes no promise for a cached token).
   */
  peekDigested(digest: Buffer): T | undefined {
    const hit = this.entries.get(digest.toString("base64url"));
    return hit && hit.until > this.now() ? hit.value : undefined;
  }

  /**
   * The kept entry for a digest while it is good: its value, and `valid()` that stays true exactly as long as
   * this cache would answer with it (a caller may hold it instead of asking again).
   */
  peekEntry(digest: Buffer): CachedAnswer<T> | undefined {
    const hit = this.entries.get(digest.toString("base64url"));
    return hit && hit.until > this.now() ? hit : undefined;
  }

  /** `get` for a token whose digest (this cache's) the caller made already. */
  async getDigested(digest: Buffer, token: string, verify: (token: string) => Promise<Verified<T>>): Promise<T> {
    const k = digest.toString("base64url");
    const hit = this.entries.get(k);
    if (hit) {
      if (hit.until > this.now()) return hit.value;
      this.drop(k);
    }
    let pending = this.inflight.get(k);
    if (!pending) {
      const started = this.generation;
      pending = verify(token).then((verified) => {
        if (verified.keep && !this.overtaken(started, verified.dependsOn ?? [])) this.keep(k, verified);
        return verified;
      });
      this.inflight.set(k, pending);
      const clear = () => {
        this.inflight.delete(k);
        if (this.inflight.size === 0) this.forgottenAt.clear();
      };
      pending.then(clear, clear);
    }
    return (await pending).value;
  }

  /** An object an entry depends on changed or went: its entries are dropped (and verifications in flight not kept). */
  forget(dependency: string): void {
    this.generation++;
    if (this.inflight.size) {
      if (this.forgottenAt.size >= FORGOTTEN_IN_FLIGHT_MAX) { this.forgottenAt.clear(); this.allForgottenAt = this.generation; }
      else this.forgottenAt.set(dependency, this.generation);
    }
    const keys = this.dependents.get(dependency);
    if (!keys) return;
    for (const k of keys) this.drop(k);
  }

  /** Drops everything (the configuration behind the answers changed). */
  clear(): void {
    this.allForgottenAt = ++this.generation;
    for (const e of this.entries.values()) e.live = false;
    this.entries.clear();
    this.dependents.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private overtaken(started: number, dependsOn: readonly string[]): boolean {
    if (this.allForgottenAt > started) return true;
    return dependsOn.some((d) => (this.forgottenAt.get(d) ?? -1) > started);
  }

  private keep(k: string, verified: Verified<T>): void {
    const now = this.now();
    const until = Math.min(now + this.ttlMs, verified.expiresAtMs ?? Infinity);
    if (until <= now) return;
    this.drop(k);
    if (this.entries.size >= this.max) this.evict(now);
    const dependsOn = verified.dependsOn ?? [];
    this.entries.set(k, new Entry(verified.value, until, dependsOn, this.now));
    for (const d of dependsOn) {
      let set = this.dependents.get(d);
      if (!set) this.dependents.set(d, (set = new Set()));
      set.add(k);
    }
  }

  private drop(k: string): void {
    const e = this.entries.get(k);
    if (!e) return;
    e.live = false;
    this.entries.delete(k);
    for (const d of e.dependsOn) {
      const set = this.dependents.get(d);
      set?.delete(k);
      if (set?.size === 0) this.dependents.delete(d);
    }
  }

  /** Expired entries first; still full: the oldest (a Map iterates in insertion order). */
  private evict(now: number): void {
    for (const [k, e] of this.entries) if (e.until <= now) this.drop(k);
    for (const k of this.entries.keys()) {
      if (this.entries.size < this.max / 2) break;
      this.drop(k);
    }
  }
}

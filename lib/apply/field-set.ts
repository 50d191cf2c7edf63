// A set of field paths, shaped as SMD's fieldpath.Set: at each level, `members` are the path elements that
// end a path in the set, and `children` the elements under which longer paths continue. A node may be both
// (FieldsV1's `.` marks a member that also has children). Operations return new sets; `insert` mutates.
import { comparePathElements, pathString, type Path, type PathElement } from "./path-element";

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

/** Index of `pe` in a sorted array, or -(insertion point) - 1. */
function search<T>(items: readonly T[], pe: PathElement, get: (t: T) => PathElement): number {
  let lo = 0;
  let hi = items.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = comparePathElements(get(items[mid]), pe);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

const self = (pe: PathElement) => pe;
const childPe = (c: Child) => c.pe;

export class FieldSet {
  members: PathElement[] = [];
  children: Child[] = [];

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds the path (not its parents). The empty path (the whole object) is never tracked. */
  insert(path: Path): void {
    if (path.length === 0) return;
    let s: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) s = s.descend(path[i]);
    const pe = path[path.length - 1];
    const at = search(s.members, pe, self);
    if (at < 0) s.members.splice(-at - 1, 0, pe);
  }

  /** The child set under `pe`, created if missing. */
  descend(pe: PathElement): FieldSet {
    const at = search(this.children, pe, childPe);
    if (at >= 0) return this.children[at].set;
    const set = new FieldSet();
    this.children.splice(-at - 1, 0, { pe, set });
    return set;
  }

  hasMember(pe: PathElement): boolean {
    return search(this.members, pe, self) >= 0;
  }

  child(pe: PathElement): FieldSet | undefined {
    const at = search(this.children, pe, childPe);
    return at >= 0 ? this.children[at].set : undefined;
  }

  /** The paths under `pe`, without the prefix (empty when none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? new FieldSet();
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let s: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && s; i++) s = s.child(path[i]);
    return !!s && s.hasMember(path[path.length - 1]);
  }

  isEmpty(): boolean {
    return this.members.length === 0 && this.children.every((c) => c.set.isEmpty());
  }

  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.members = mergeSorted(this.members, other.members, self, (a) => a);
    out.children = mergeSorted(this.children, other.children, childPe, (a, b) => ({ pe: a.pe, set: a.set.union(b.set) }));
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.members = this.members.filter((pe) => other.hasMember(pe));
    for (const c of this.children) {
      const o = other.child(c.pe);
      if (!o) continue;
      const set = c.set.intersection(o);
      if (!set.isEmpty()) out.children.push({ pe: c.pe, set });
    }
    return out;
  }

  /** Paths in this set and not in `other` (a parent minus its child stays; a child minus its parent stays). */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.members = this.members.filter((pe) => !other.hasMember(pe));
    for (const c of this.children) {
      const o = other.child(c.pe);
      const set = o ? c.set.difference(o) : c.set;
      if (!set.isEmpty()) out.children.push({ pe: c.pe, set });
    }
    return out;
  }

  /** Like difference, but a member of `other` also removes everything under it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.members = this.members.filter((pe) => !other.hasMember(pe));
    for (const c of this.children) {
      if (other.hasMember(c.pe)) continue;
      const o = other.child(c.pe);
      const set = o ? c.set.recursiveDifference(o) : c.set;
      if (!set.isEmpty()) out.children.push({ pe: c.pe, set });
    }
    return out;
  }

  equals(other: FieldSet): boolean {
    if (this.members.length !== other.members.length || this.children.length !== other.children.length) return false;
    for (let i = 0; i < this.members.length; i++) if (comparePathElements(this.members[i], other.members[i])) return false;
    for (let i = 0; i < this.children.length; i++) {
      const a = this.children[i];
      const b = other.children[i];
      if (comparePathElements(a.pe, b.pe) || !a.set.equals(b.set)) return false;
    }
    return true;
  }

  /** Every member path, pre-order: a level's members first, then its children in order (SMD's Iterate). */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = this.members.map((pe) => [...prefix, pe]);
    for (const c of this.children) out.push(...c.set.paths([...prefix, c.pe]));
    return out;
  }

  toString(): string {
    return this.paths().map(pathString).join("\n");
  }
}

function mergeSorted<T>(a: readonly T[], b: readonly T[], key: (t: T) => PathElement, both: (x: T, y: T) => T): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePathElements(key(a[i]), key(b[j]));
    if (c < 0) out.push(a[i++]);
    else if (c > 0) out.push(b[j++]);
    else out.push(both(a[i++], b[j++]));
  }
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

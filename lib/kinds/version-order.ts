// The order kube ranks API versions in (discovery's preferred version, a deprecated version's suggested successor).

/**
 * kube's CompareKubeAwareVersionStrings order: GA before beta before alpha, higher numbers first, then versions
 * that do not look like kube versions in name order. A group's first version is its preferred one.
 */
export function kubeVersionOrder(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    return { major: Number(m[1]), rank: m[2] === "alpha" ? 0 : m[2] === "beta" ? 1 : 2, minor: m[3] ? Number(m[3]) : 0 };
  };
  const x = parse(a);
  const y = parse(b);
  if (x && y) return y.rank - x.rank || y.major - x.major || y.minor - x.minor;
  if (x) return -1;
  if (y) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

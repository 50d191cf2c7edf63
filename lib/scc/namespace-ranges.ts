// The per-namespace ranges OpenShift hands out (library-go's uid and mcs allocators, as the cluster-policy-
// controller's namespace SCC allocation uses them): UID blocks of 10000 from 1000000000-1999999999, and an MCS
// label per block taken from a two-category combination, five labels apart per project.

export const UID_RANGE_ANNOTATION = "openshift.io/sa.scc.uid-range";
export const MCS_ANNOTATION = "openshift.io/sa.scc.mcs";
export const SUPPLEMENTAL_GROUPS_ANNOTATION = "openshift.io/sa.scc.supplemental-groups";

export const UID_RANGE_START = 1_000_000_000;
export const UID_RANGE_END = 1_999_999_999;
export const UID_BLOCK_SIZE = 10_000;
export const UID_BLOCK_COUNT = Math.floor((UID_RANGE_END - UID_RANGE_START + 1) / UID_BLOCK_SIZE);
const MCS_PREFIX = "s0:";
const MCS_LABELS_PER_PROJECT = 5;

export interface IdBlock { start: number; end: number }

/** uid.ParseBlock: `<start>/<size>` or `<start>-<end>`; throws with library-go's message on anything else. */
export function parseBlock(text: string): IdBlock {
  const sized = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (sized) return { start: Number(sized[1]), end: Number(sized[1]) + Number(sized[2]) - 1 };
  const ranged = /^(\d+)-(\d+)$/.exec(text.trim());
  if (ranged) return { start: Number(ranged[1]), end: Number(ranged[2]) };
  throw new Error(text.includes("/") ? `block not in the format "<start>/<size>"` : `block not in the format "<start>-<end>"`);
}

/** The annotation value of the n-th UID block, e.g. `1000680000/10000`. */
export const uidBlockAnnotation = (index: number) => `${UID_RANGE_START + index * UID_BLOCK_SIZE}/${UID_BLOCK_SIZE}`;

/** The block index a uid-range annotation names, or undefined when it is not one of the allocator's blocks. */
export function uidBlockIndex(annotation: string | undefined): number | undefined {
  if (!annotation) return undefined;
  let block: IdBlock;
  try { block = parseBlock(annotation); } catch { return undefined; }
  const offset = block.start - UID_RANGE_START;
  if (offset < 0 || offset % UID_BLOCK_SIZE !== 0 || block.end - block.start + 1 !== UID_BLOCK_SIZE) return undefined;
  const index = offset / UID_BLOCK_SIZE;
  return index < UID_BLOCK_COUNT ? index : undefined;
}

const binomial = (n: number, k: number): number => {
  if (k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
};

/**
 * The MCS level of the n-th block: the (n*5)-th two-category combination in the combinatorial number system,
 * larger category first (block 0 → `s0:c1,c0`, block 68 → `s0:c26,c15`).
 */
export function mcsLabelForBlock(index: number): string {
  let offset = index * MCS_LABELS_PER_PROJECT;
  const categories: number[] = [];
  for (let k = 2; k > 0; k--) {
    let c = k - 1;
    while (binomial(c + 1, k) <= offset) c++;
    categories.push(c);
    offset -= binomial(c, k);
  }
  return `${MCS_PREFIX}${categories.map((c) => `c${c}`).join(",")}`;
}

// A line diff of two texts (the console's history view compares two revisions' YAML with it): the longest
// common subsequence of lines, as unified-diff-like rows. Quadratic in the lines of the changed middle (common
// head and tail are cut first), which is plenty for objects; past MAX_CELLS the middle is shown replaced.
export type DiffRow = { op: " " | "-" | "+"; text: string; oldLine?: number; newLine?: number };

const MAX_CELLS = 4_000_000;

export function lineDiff(oldText: string, newText: string): DiffRow[] {
  const a = oldText === "" ? [] : oldText.replace(/\n$/, "").split("\n");
  const b = newText === "" ? [] : newText.replace(/\n$/, "").split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const rows: DiffRow[] = [];
  for (let i = 0; i < head; i++) rows.push({ op: " ", text: a[i], oldLine: i + 1, newLine: i + 1 });
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  if (am.length * bm.length > MAX_CELLS) {
    am.forEach((t, i) => rows.push({ op: "-", text: t, oldLine: head + i + 1 }));
    bm.forEach((t, j) => rows.push({ op: "+", text: t, newLine: head + j + 1 }));
  } else {
    // lcs[i][j]: the longest common subsequence of am[i..] and bm[j..].
    const w = bm.length + 1;
    const lcs = new Uint32Array((am.length + 1) * w);
    for (let i = am.length - 1; i >= 0; i--) {
      for (let j = bm.length - 1; j >= 0; j--) {
        lcs[i * w + j] = am[i] === bm[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
      }
    }
    let i = 0, j = 0;
    while (i < am.length || j < bm.length) {
      if (i < am.length && j < bm.length && am[i] === bm[j]) {
        rows.push({ op: " ", text: am[i], oldLine: head + i + 1, newLine: head + j + 1 }); i++; j++;
      } else if (i < am.length && (j === bm.length || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
        rows.push({ op: "-", text: am[i], oldLine: head + i + 1 }); i++;
      } else {
        rows.push({ op: "+", text: bm[j], newLine: head + j + 1 }); j++;
      }
    }
  }
  for (let k = tail; k > 0; k--) {
    rows.push({ op: " ", text: a[a.length - k], oldLine: a.length - k + 1, newLine: b.length - k + 1 });
  }
  return rows;
}

/** How many lines were removed and added. */
export function diffStats(rows: DiffRow[]): { removed: number; added: number } {
  return { removed: rows.filter((r) => r.op === "-").length, added: rows.filter((r) => r.op === "+").length };
}

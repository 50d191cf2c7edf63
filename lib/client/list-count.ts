// How many objects a collection holds, read cheaply: a list of one item (`limit=1`) whose
// `metadata.remainingItemCount` says how many more there are, as kube-apiserver reports it for a list without
// selectors. Without that count (a server that leaves it out) and with a continue token, only "at least" is
// known. Pure: the delete dialog's namespace contents use it, and it is tested without a browser.
import { collectionPath } from "./resource-path";
import type { AnyKind } from "../kinds";

export interface ListPage {
  items?: readonly unknown[];
  metadata?: { remainingItemCount?: number; continue?: string };
}

export interface ObjectCount {
  count: number;
  /** True when the server said there is more but not how much: `count` is a lower bound. */
  atLeast: boolean;
}

/** The URL of the one-item list that counts a kind's objects in a namespace. */
export function countUrl(kind: AnyKind, namespace: string): string {
  return `${collectionPath(kind, namespace)}?limit=1`;
}

export function listCount(page: ListPage): ObjectCount {
  const shown = page.items?.length ?? 0;
  const remaining = page.metadata?.remainingItemCount;
  if (typeof remaining === "number" && remaining >= 0) return { count: shown + remaining, atLeast: false };
  // A continue token means at least one more.
  return page.metadata?.continue ? { count: shown + 1, atLeast: true } : { count: shown, atLeast: false };
}

/** "3 ConfigMaps", "1 Secret", "at least 2 Pods"; `title` is the kind's plural title. */
export function countText(kind: string, title: string, { count, atLeast }: ObjectCount): string {
  const noun = count === 1 && !atLeast ? kind : title;
  return `${atLeast ? "at least " : ""}${count} ${noun}`;
}

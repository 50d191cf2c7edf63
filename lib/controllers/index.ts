// The controllers that run inside the server (reference decision 12), started once the store is open.
import type { Registry } from "../registry/registry";

export interface ControllerContext {
  registry: Registry;
}

/** Starts every controller; returns a function that stops them all. */
export function startControllers(_ctx: ControllerContext): () => void {
  const stops: (() => void)[] = [];
  return () => { for (const stop of stops) stop(); };
}

import type { KindDefinition, KubeObject } from "./types";

/**
 * Identity helper: gives each kind file type inference and checking against the contract in types.ts
 * without repeating the object type at every hook.
 */
export function defineKind<T extends KubeObject>(definition: KindDefinition<T>): KindDefinition<T> {
  return definition;
}

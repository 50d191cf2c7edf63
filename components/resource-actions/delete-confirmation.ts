// When a delete must be typed to be confirmed: a namespace (everything in it goes) asks for its name; more
// than 20 objects ask for their count, or the name of the one namespace they all live in. Fewer objects of
// other kinds need only the button. Pure, so the rule is tested without a browser.

export const TYPED_CONFIRMATION_OVER = 20;

export interface ConfirmationRule {
  /** What to type, in order of preference; any one of them confirms. */
  accepts: string[];
  /** The sentence asking for it. */
  prompt: string;
}

interface Target {
  metadata: { name?: string; namespace?: string };
}

export function typedConfirmation(kindName: string, objects: readonly Target[]): ConfirmationRule | undefined {
  if (kindName === "Namespace" && objects.length === 1) {
    const name = objects[0].metadata.name ?? "";
    return { accepts: [name], prompt: `Type the namespace's name, ${name}, to confirm.` };
  }
  if (objects.length > TYPED_CONFIRMATION_OVER || (kindName === "Namespace" && objects.length > 1)) {
    const count = String(objects.length);
    const namespaces = new Set(objects.map((o) => o.metadata.namespace ?? ""));
    const [only] = namespaces;
    if (namespaces.size === 1 && only) {
      return { accepts: [count, only], prompt: `This deletes ${count} objects. Type ${count} (the number of objects) or ${only} (their namespace) to confirm.` };
    }
    return { accepts: [count], prompt: `This deletes ${count} objects. Type ${count} (the number of objects) to confirm.` };
  }
  return undefined;
}

/** Exact match after trimming surrounding spaces (names are case-sensitive). */
export function confirmationMet(rule: ConfirmationRule | undefined, typed: string): boolean {
  return !rule || rule.accepts.includes(typed.trim());
}

// Pod tolerations (ValidateTolerations, 1.32).
import { field, type FieldError } from "../status";
import { labelValueErrors, validateLabelName } from "./labels";
import { isSet, objectOf, stringOf } from "./zero-values";

export const taintEffects = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

export function validateTolerations(tolerations: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((item, i) => {
    const t = objectOf(item);
    const p = `${path}[${i}]`;
    const key = stringOf(t.key);
    const operator = stringOf(t.operator);
    const effect = stringOf(t.effect);
    const value = stringOf(t.value);
    if (key) errs.push(...validateLabelName(key, `${p}.key`));
    if (!key && operator !== "Exists") {
      errs.push(field.invalid(`${p}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (isSet(t.tolerationSeconds) && effect !== "NoExecute") {
      errs.push(field.invalid(`${p}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (operator) {
      case "Equal":
      case "": {
        const msgs = labelValueErrors(value);
        if (msgs.length) errs.push(field.invalid(`${p}.operator`, value, msgs.join(";")));
        break;
      }
      case "Exists":
        if (value) errs.push(field.invalid(`${p}.operator`, value, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(field.notSupported(`${p}.operator`, operator, ["Equal", "Exists"]));
    }
    if (effect && !taintEffects.includes(effect)) errs.push(field.notSupported(`${p}.effect`, effect, taintEffects));
  });
  return errs;
}

// LimitRange rules (ValidateLimitRange, 1.32): item types, resource names per type, and the ordering
// min ≤ defaultRequest ≤ default ≤ max with maxLimitRequestRatio ≥ 1 and ≤ max/min.
import { field, type FieldError } from "../status";
import { qualifiedNameErrors } from "./labels";
import { compareQuantities, quantityMilliValue, quantityString, quantityValue, type Quantity } from "./quantity";
import { invalidRendered } from "./rendered-value";
import { isOvercommitAllowed, validateContainerResourceName, validateResourceName } from "./resource-names";
import { quantityOf } from "./resource-requirements";
import { listOf, objectOf, sortedEntries, stringOf } from "./zero-values";

const MAX_MILLI_VALUE = 9223372036854775807n / 1000n;

function validateLimitType(type: string, path: string): FieldError[] {
  const errs = qualifiedNameErrors(type).map((m) => field.invalid(path, type, m));
  if (errs.length) return errs;
  if (!type.includes("/") && !["Pod", "Container", "PersistentVolumeClaim"].includes(type)) {
    return [field.invalid(path, type, "must be a standard limit type or fully qualified")];
  }
  return [];
}

const validateName = (type: string, name: string, path: string) =>
  type === "Pod" || type === "Container" ? validateContainerResourceName(name, path) : validateResourceName(name, path);

/** Go's %f: six decimals, "+Inf" for an infinite ratio. */
const goFloat = (x: number) => (Number.isFinite(x) ? x.toFixed(6) : x > 0 ? "+Inf" : Number.isNaN(x) ? "NaN" : "-Inf");

export function validateLimitRangeSpec(specValue: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  listOf(objectOf(specValue).limits).forEach((item, i) => {
    const limit = objectOf(item);
    const p = `spec.limits[${i}]`;
    const type = stringOf(limit.type);
    errs.push(...validateLimitType(type, `${p}.type`));
    if (types.has(type)) errs.push(field.duplicate(`${p}.type`, type));
    types.add(type);
    const keys = new Set<string>();
    const read = (member: string): Map<string, Quantity> => {
      const values = new Map<string, Quantity>();
      for (const [name, value] of sortedEntries(limit[member])) {
        errs.push(...validateName(type, name, `${p}.${member}[${name}]`));
        keys.add(name);
        values.set(name, quantityOf(value));
      }
      return values;
    };
    const max = read("max");
    const min = read("min");
    let defaults = new Map<string, Quantity>();
    let defaultRequests = new Map<string, Quantity>();
    if (type === "Pod") {
      if (Object.keys(objectOf(limit.default)).length) errs.push(field.forbidden(`${p}.default`, "may not be specified when `type` is 'Pod'"));
      if (Object.keys(objectOf(limit.defaultRequest)).length) errs.push(field.forbidden(`${p}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
    } else {
      defaults = read("default");
      defaultRequests = read("defaultRequest");
    }
    if (type === "PersistentVolumeClaim" && !("storage" in objectOf(limit.min)) && !("storage" in objectOf(limit.max))) {
      errs.push(field.required(`${p}.limits`, "either minimum or maximum storage value is required, but neither was provided"));
    }
    const ratios = read("maxLimitRequestRatio");
    for (const k of [...keys].sort()) {
      const mn = min.get(k);
      const mx = max.get(k);
      const df = defaults.get(k);
      const dr = defaultRequests.get(k);
      const ratio = ratios.get(k);
      const s = quantityString;
      if (mn && mx && compareQuantities(mn, mx) > 0) errs.push(invalidRendered(`${p}.min[${k}]`, s(mn), `min value ${s(mn)} is greater than max value ${s(mx)}`));
      if (dr && mn && compareQuantities(mn, dr) > 0) errs.push(invalidRendered(`${p}.defaultRequest[${k}]`, s(dr), `min value ${s(mn)} is greater than default request value ${s(dr)}`));
      if (dr && mx && compareQuantities(dr, mx) > 0) errs.push(invalidRendered(`${p}.defaultRequest[${k}]`, s(dr), `default request value ${s(dr)} is greater than max value ${s(mx)}`));
      if (dr && df && compareQuantities(dr, df) > 0) errs.push(invalidRendered(`${p}.defaultRequest[${k}]`, s(dr), `default request value ${s(dr)} is greater than default limit value ${s(df)}`));
      if (df && mn && compareQuantities(mn, df) > 0) errs.push(invalidRendered(`${p}.default[${k}]`, s(mn), `min value ${s(mn)} is greater than default value ${s(df)}`));
      if (df && mx && compareQuantities(df, mx) > 0) errs.push(invalidRendered(`${p}.default[${k}]`, s(mx), `default value ${s(df)} is greater than max value ${s(mx)}`));
      if (ratio && compareQuantities(ratio, { mantissa: 1n, exponent: 0, format: "DecimalSI" }) < 0) {
        errs.push(invalidRendered(`${p}.maxLimitRequestRatio[${k}]`, s(ratio), `ratio ${s(ratio)} is less than 1`));
      }
      if (ratio && mn && mx) {
        let ratioValue = Number(quantityValue(ratio));
        let minValue = quantityValue(mn);
        let maxValue = quantityValue(mx);
        if (quantityValue(ratio) < MAX_MILLI_VALUE && minValue < MAX_MILLI_VALUE && maxValue < MAX_MILLI_VALUE) {
          ratioValue = Number(quantityMilliValue(ratio)) / 1000;
          minValue = quantityMilliValue(mn);
          maxValue = quantityMilliValue(mx);
        }
        const limitRatio = Number(maxValue) / Number(minValue);
        if (ratioValue > limitRatio) {
          errs.push(invalidRendered(`${p}.maxLimitRequestRatio[${k}]`, s(ratio), `ratio ${s(ratio)} is greater than max/min = ${goFloat(limitRatio)}`));
        }
      }
      if (!isOvercommitAllowed(k) && df && dr && compareQuantities(df, dr) !== 0) {
        errs.push(invalidRendered(`${p}.defaultRequest[${k}]`, s(dr), `default value ${s(df)} must equal to defaultRequest value ${s(dr)} in ${k}`));
      }
    }
  });
  return errs;
}

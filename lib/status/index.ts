// The ground floor: Status errors, field errors and their factories (imports nothing of ours).
export * from "./status-error";
export * from "./field-error";
export { errors } from "./errors";
export { goQuote } from "./go-quote";

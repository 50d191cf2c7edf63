import { describe, expect, it } from "vitest";
import { serviceAccount, type ServiceAccount } from "./service-account";
import { create, created, templateOf, update, variant } from "./validation-harness";

const base = templateOf<ServiceAccount>(serviceAccount);

describe("ServiceAccount validation", () => {
  it("accepts its template", () => expect(create(serviceAccount, base).causes).toEqual([]));

  it("checks only metadata: any secret or pull-secret names are accepted", () => {
    expect(create(serviceAccount, variant(base, (sa) => {
      sa.secrets = [{ name: "Not_A_Name" }];
      sa.imagePullSecrets = [{ name: "" }];
    })).causes).toEqual([]);
  });

  it("requires a DNS subdomain name", () => {
    expect(create(serviceAccount, variant(base, (sa) => { sa.metadata.name = "Web"; })).causes).toEqual([
      {
        field: "metadata.name",
        reason: "FieldValueInvalid",
        message: "Invalid value: \"Web\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      },
    ]);
  });

  it("applies no defaults and allows any update", () => {
    const old = created<ServiceAccount>(serviceAccount, base);
    expect(old).toEqual(base);
    expect(update(serviceAccount, old, variant(old, (sa) => { sa.automountServiceAccountToken = true; })).causes).toEqual([]);
  });
});

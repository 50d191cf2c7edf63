// oidc-provider ships no type declarations; the tests use it through its documented options only.
declare module "oidc-provider";

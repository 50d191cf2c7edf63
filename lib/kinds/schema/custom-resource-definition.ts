// CustomResourceDefinition (apiextensions.k8s.io/v1, Kubernetes 1.32): the types of k8s.io/apiextensions-apiserver's
// v1 package. JSONSchemaProps is recursive (properties, items, allOf, ...): the emitter registers a named component
// before walking it, so the reference to itself terminates. Fields whose JSON form is "a schema or a boolean / an
// array" (items, additionalProperties, additionalItems, dependencies) and free JSON (default, example, enum) are `any`,
// as kube publishes them without a type.
import { resource, type ApiGroupNaming } from "./resource";
import { any, arr, bool, describe, int, int64, map, num, obj, str, time, bytes, type Schema } from "./schema";

export const APIEXTENSIONS_GROUP = "apiextensions.k8s.io";

/** `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.<Type>` (Go package k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1). */
const apiextensionsType = (type: string) => `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.${type}`;

export const apiextensionsApi: ApiGroupNaming = { group: APIEXTENSIONS_GROUP, typeName: apiextensionsType };

const jsonSchemaPropsFields: Record<string, Schema> = {};

export const jsonSchemaProps = obj(jsonSchemaPropsFields, {
  name: apiextensionsType("JSONSchemaProps"),
  description: "A JSON-Schema following the OpenAPI v3 schema subset kube accepts, plus the x-kubernetes-* extensions.",
});

const validationRule = obj(
  {
    fieldPath: str({ description: "Where a failure is reported, as a JSON path relative to this schema's value (e.g. .spec.replicas)." }),
    message: str({ description: "What a failing rule reports (default: \"failed rule: <rule>\")." }),
    messageExpression: str({ description: "A CEL expression producing the failure message; wins over message when it evaluates to a string." }),
    optionalOldSelf: bool({ description: "Evaluate a transition rule also on create or when there is no old value (oldSelf is then an optional)." }),
    reason: str({ description: "The cause reported on failure: FieldValueInvalid (default), FieldValueForbidden, FieldValueRequired, FieldValueDuplicate." }),
    rule: str({ description: "The CEL expression; `self` is this schema's value, `oldSelf` the stored one in transition rules." }),
  },
  { name: apiextensionsType("ValidationRule"), description: "A CEL validation rule of a schema node.", required: ["rule"] },
);

Object.assign(jsonSchemaPropsFields, {
  $ref: str(),
  $schema: str(),
  additionalItems: any({ description: "Not supported for custom resources." }),
  additionalProperties: any({ description: "Values of a map: a schema, or a boolean. Mutually exclusive with properties." }),
  allOf: arr(jsonSchemaProps),
  anyOf: arr(jsonSchemaProps),
  default: any({ description: "The value given to an absent field (structural schemas only); must validate and survive pruning." }),
  definitions: map(jsonSchemaProps, { description: "Not supported for custom resources." }),
  dependencies: map(any(), { description: "Not supported for custom resources." }),
  description: str(),
  enum: arr(any()),
  example: any(),
  exclusiveMaximum: bool(),
  exclusiveMinimum: bool(),
  externalDocs: obj(
    { description: str(), url: str() },
    { name: apiextensionsType("ExternalDocumentation"), description: "A link to more documentation." },
  ),
  format: str({ description: "A format kube validates strings against (int32, int64, float, double, byte, date, date-time, password, ...)." }),
  id: str(),
  items: any({ description: "The schema of every item of an array (an array of schemas is refused)." }),
  maxItems: int64(),
  maxLength: int64(),
  maxProperties: int64(),
  maximum: num(),
  minItems: int64(),
  minLength: int64(),
  minProperties: int64(),
  minimum: num(),
  multipleOf: num(),
  not: jsonSchemaProps,
  nullable: bool(),
  oneOf: arr(jsonSchemaProps),
  pattern: str(),
  patternProperties: map(jsonSchemaProps, { description: "Not supported for custom resources." }),
  properties: map(jsonSchemaProps, { description: "The fields of an object, each with its schema." }),
  required: arr(str()),
  title: str(),
  type: str({ description: "object, array, string, integer, number or boolean." }),
  uniqueItems: bool(),
  "x-kubernetes-embedded-resource": bool({ description: "The value is a whole Kubernetes object (apiVersion, kind, metadata are validated and kept)." }),
  "x-kubernetes-int-or-string": bool({ description: "The value may be an integer or a string." }),
  "x-kubernetes-list-map-keys": arr(str(), { description: "The keys identifying the items of a list of type map." }),
  "x-kubernetes-list-type": str({ description: "atomic (default), set or map: how server-side apply merges the list." }),
  "x-kubernetes-map-type": str({ description: "granular (default) or atomic: how server-side apply merges the object." }),
  "x-kubernetes-preserve-unknown-fields": bool({ description: "Keep fields the schema does not declare instead of pruning them." }),
  "x-kubernetes-validations": arr(validationRule, {
    mergeKey: "rule", strategy: "merge", listMapKeys: ["rule"],
    description: "CEL rules the value must pass.",
  }),
});

const serviceReference = obj(
  {
    name: str({ description: "Name of the Service." }),
    namespace: str({ description: "Namespace of the Service." }),
    path: str({ description: "URL path requests are sent to." }),
    port: int({ description: "Port of the Service (default 443)." }),
  },
  { name: apiextensionsType("ServiceReference"), description: "A Service that serves a conversion webhook.", required: ["namespace", "name"] },
);

const webhookClientConfig = obj(
  {
    caBundle: bytes({ description: "PEM CA bundle to verify the webhook's serving certificate." }),
    service: serviceReference,
    url: str({ description: "https URL of the webhook; exactly one of url and service." }),
  },
  { name: apiextensionsType("WebhookClientConfig"), description: "How to reach a conversion webhook." },
);

const conversion = obj(
  {
    strategy: str({ description: "None (only apiVersion is rewritten between versions) or Webhook (refused here: no conversion webhooks are called)." }),
    webhook: obj(
      {
        clientConfig: webhookClientConfig,
        conversionReviewVersions: arr(str(), { description: "ConversionReview versions the webhook understands, preferred first." }),
      },
      { name: apiextensionsType("WebhookConversion"), description: "A conversion webhook.", required: ["conversionReviewVersions"] },
    ),
  },
  { name: apiextensionsType("CustomResourceConversion"), description: "How custom resources are converted between versions.", required: ["strategy"] },
);

const names = obj(
  {
    categories: arr(str(), { description: "Groups of resources this one belongs to, for `kubectl get <category>` (e.g. all)." }),
    kind: str({ description: "The serialized kind, CamelCase (e.g. CronTab)." }),
    listKind: str({ description: "The kind of a list (default <kind>List)." }),
    plural: str({ description: "The plural served at /apis/<group>/<version>/<plural>, lower case." }),
    shortNames: arr(str(), { description: "Short names for kubectl (e.g. ct)." }),
    singular: str({ description: "The singular, lower case (default: kind in lower case)." }),
  },
  { name: apiextensionsType("CustomResourceDefinitionNames"), description: "The names a custom resource is served under.", required: ["plural", "kind"] },
);

const columnDefinition = obj(
  {
    description: str({ description: "What the column shows." }),
    format: str({ description: "int32, int64, float, double, byte, date, date-time or password." }),
    jsonPath: str({ description: "A simple JSON path evaluated against each object for the cell's value." }),
    name: str({ description: "The column header." }),
    priority: int({ description: "0 for the default view; higher only with -o wide." }),
    type: str({ description: "integer, number, string, boolean or date." }),
  },
  { name: apiextensionsType("CustomResourceColumnDefinition"), description: "A column of kubectl get's table.", required: ["name", "type", "jsonPath"] },
);

const subresources = obj(
  {
    scale: obj(
      {
        labelSelectorPath: str({ description: "JSON path under .spec or .status to the label selector in string form, served as Scale status.selector." }),
        specReplicasPath: str({ description: "JSON path under .spec to the desired replicas, served as Scale spec.replicas." }),
        statusReplicasPath: str({ description: "JSON path under .status to the observed replicas, served as Scale status.replicas." }),
      },
      { name: apiextensionsType("CustomResourceSubresourceScale"), description: "The /scale subresource.", required: ["specReplicasPath", "statusReplicasPath"] },
    ),
    status: obj({}, { name: apiextensionsType("CustomResourceSubresourceStatus"), description: "The /status subresource (an empty object enables it)." }),
  },
  { name: apiextensionsType("CustomResourceSubresources"), description: "Subresources a version serves." },
);

const version = obj(
  {
    additionalPrinterColumns: arr(columnDefinition, { description: "Columns of kubectl get beyond the name (default: Age)." }),
    deprecated: bool({ description: "Requests to this version answer with a deprecation Warning." }),
    deprecationWarning: str({ description: "The Warning text for a deprecated version (default: kube's)." }),
    name: str({ description: "The version, served at /apis/<group>/<name>." }),
    schema: obj(
      { openAPIV3Schema: jsonSchemaProps },
      { name: apiextensionsType("CustomResourceValidation"), description: "The schema of this version's objects." },
    ),
    selectableFields: arr(
      obj({ jsonPath: str({ description: "A simple JSON path to a string, integer or boolean field." }) }, {
        name: apiextensionsType("SelectableField"), description: "A field usable in field selectors.", required: ["jsonPath"],
      }),
      { description: "Fields usable in field selectors besides metadata.name and metadata.namespace (at most 8)." },
    ),
    served: bool({ description: "The version is served by the REST API." }),
    storage: bool({ description: "Objects are stored in this version; exactly one version has it." }),
    subresources,
  },
  { name: apiextensionsType("CustomResourceDefinitionVersion"), description: "One version of the custom resource.", required: ["name", "served", "storage"] },
);

const condition = obj(
  {
    lastTransitionTime: time({ description: "When the condition last changed status." }),
    message: str({ description: "Human-readable details." }),
    reason: str({ description: "CamelCase reason for the last transition." }),
    status: str({ description: "True, False or Unknown." }),
    type: str({ description: "Established, NamesAccepted, Terminating, ..." }),
  },
  { name: apiextensionsType("CustomResourceDefinitionCondition"), description: "One condition of a CustomResourceDefinition.", required: ["type", "status"] },
);

export const customResourceDefinitionSchema = resource(
  "CustomResourceDefinition",
  {
    spec: obj(
      {
        conversion,
        group: str({ description: "The API group of the custom resource; served at /apis/<group>/... and part of the name (<plural>.<group>)." }),
        names: describe(names, "The names the custom resource is served under."),
        preserveUnknownFields: bool({ description: "Deprecated; must be false (use x-kubernetes-preserve-unknown-fields in the schema)." }),
        scope: str({ description: "Cluster or Namespaced." }),
        versions: arr(version, { description: "Every version of the custom resource; exactly one is the storage version." }),
      },
      { name: apiextensionsType("CustomResourceDefinitionSpec"), description: "How the custom resource is served.", required: ["group", "names", "scope", "versions"] },
    ),
    status: obj(
      {
        acceptedNames: describe(names, "The names actually served (they may differ from spec.names while a name conflicts)."),
        conditions: arr(condition, { listType: "map", listMapKeys: ["type"], description: "The latest observations: NamesAccepted, Established, Terminating." }),
        storedVersions: arr(str(), { description: "Every version objects have ever been stored in." }),
      },
      { name: apiextensionsType("CustomResourceDefinitionStatus"), description: "What the server observed of the custom resource definition." },
    ),
  },
  {
    description: "A resource served by this API server from a definition: its group, names, scope, versions and their schemas.",
    required: ["spec"],
    api: apiextensionsApi,
  },
);

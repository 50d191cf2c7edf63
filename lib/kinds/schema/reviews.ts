// The create-only API types: kube's reviews (authentication.k8s.io/v1 TokenReview and SelfSubjectReview,
// authorization.k8s.io/v1 SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview and
// SelfSubjectRulesReview) and TokenRequest, the body of `serviceaccounts/<name>/token`. Never stored; these schemas
// feed the OpenAPI documents (kubectl validates a review manifest against them) and unknown-field checks.
import { labelSelectorRequirement } from "./label-selector";
import { metaType } from "./names";
import { resource, type ApiGroupNaming } from "./resource";
import { arr, bool, describe, int64, map, obj, str, time } from "./schema";

export const AUTHENTICATION_GROUP = "authentication.k8s.io";
export const AUTHORIZATION_GROUP = "authorization.k8s.io";

/** `io.k8s.api.authentication.v1.<Type>` (Go package k8s.io/api/authentication/v1). */
const authenticationType = (type: string) => `io.k8s.api.authentication.v1.${type}`;
/** `io.k8s.api.authorization.v1.<Type>` (Go package k8s.io/api/authorization/v1). */
const authorizationType = (type: string) => `io.k8s.api.authorization.v1.${type}`;

export const authenticationApi: ApiGroupNaming = { group: AUTHENTICATION_GROUP, typeName: authenticationType };
export const authorizationApi: ApiGroupNaming = { group: AUTHORIZATION_GROUP, typeName: authorizationType };

const strings = (description: string) => arr(str(), { description });

// --- authentication.k8s.io/v1 ---------------------------------------------------------------------------------------

const userInfo = obj(
  {
    extra: map(arr(str()), { description: "Further facts the authenticator recorded about the user." }),
    groups: strings("Groups the user belongs to."),
    uid: str({ description: "A value that identifies this user across time, unlike the name, which may be reused." }),
    username: str({ description: "The user's name, unique among active users." }),
  },
  { name: authenticationType("UserInfo"), description: "Who a request or a token belongs to." },
);

const tokenReviewSpec = obj(
  {
    audiences: strings("Audiences the resource server accepts; the token must be valid for at least one of them. Empty: the API server's own audiences."),
    token: str({ description: "The opaque bearer token to check." }),
  },
  { name: authenticationType("TokenReviewSpec"), description: "The token to authenticate." },
);

const tokenReviewStatus = obj(
  {
    audiences: strings("Which of the requested audiences the token is valid for."),
    authenticated: bool({ description: "True when the token belongs to a known user." }),
    error: str({ description: "Why the token could not be checked, if it could not." }),
    user: describe(userInfo, "The user the token belongs to."),
  },
  { name: authenticationType("TokenReviewStatus"), description: "The outcome of a token review." },
);

export const tokenReviewSchema = resource(
  "TokenReview",
  {
    spec: describe(tokenReviewSpec, "The token to check."),
    status: describe(tokenReviewStatus, "Filled in by the server: whether the token is valid and whose it is."),
  },
  { description: "Asks who a bearer token belongs to. Answered at once, never stored.", required: ["spec"], api: authenticationApi },
);

const selfSubjectReviewStatus = obj(
  { userInfo: describe(userInfo, "The user making the request.") },
  { name: authenticationType("SelfSubjectReviewStatus"), description: "What the server knows about the caller." },
);

export const selfSubjectReviewSchema = resource(
  "SelfSubjectReview",
  { status: describe(selfSubjectReviewStatus, "Filled in by the server: the caller's user information.") },
  { description: "Asks who the caller is, as the server sees it (kubectl auth whoami). Answered at once, never stored.", api: authenticationApi },
);

const boundObjectReference = obj(
  {
    apiVersion: str({ description: "API version of the referent." }),
    kind: str({ description: "Kind of the referent: Pod, Secret or Node." }),
    name: str({ description: "Name of the referent." }),
    uid: str({ description: "UID of the referent." }),
  },
  { name: authenticationType("BoundObjectReference"), description: "An object the token's validity is tied to." },
);

const tokenRequestSpec = obj(
  {
    audiences: strings("Who the token is meant for; a recipient must find one of its own identifiers here."),
    boundObjectRef: describe(boundObjectReference, "An object whose deletion invalidates the token."),
    expirationSeconds: int64({ description: "Requested lifetime in seconds; the server may shorten or lengthen it." }),
  },
  { name: authenticationType("TokenRequestSpec"), description: "What token to issue.", required: ["audiences"] },
);

const tokenRequestStatus = obj(
  {
    expirationTimestamp: time({ description: "When the token expires." }),
    token: str({ description: "The issued token." }),
  },
  { name: authenticationType("TokenRequestStatus"), description: "The issued token.", required: ["token", "expirationTimestamp"] },
);

export const tokenRequestSchema = resource(
  "TokenRequest",
  {
    spec: describe(tokenRequestSpec, "What token to issue."),
    status: describe(tokenRequestStatus, "Filled in by the server: the token and its expiry."),
  },
  { description: "Asks for a token of a service account (serviceaccounts/<name>/token).", required: ["spec"], api: authenticationApi },
);

// --- authorization.k8s.io/v1 ----------------------------------------------------------------------------------------

const fieldSelectorRequirement = obj(
  {
    key: str({ description: "Field selector key the requirement applies to." }),
    operator: str({ description: "How the key relates to the values: In, NotIn, Exists or DoesNotExist." }),
    values: strings("Values for In and NotIn (non-empty); must be empty for Exists and DoesNotExist."),
  },
  { name: metaType("FieldSelectorRequirement"), description: "One requirement on a field.", required: ["key", "operator"] },
);

const fieldSelectorAttributes = obj(
  {
    rawSelector: str({ description: "The field selector as a query string would carry it; not together with requirements." }),
    requirements: arr(fieldSelectorRequirement, { description: "The parsed requirements; not together with rawSelector." }),
  },
  { name: authorizationType("FieldSelectorAttributes"), description: "A field selector the request is limited to." },
);

const labelSelectorAttributes = obj(
  {
    rawSelector: str({ description: "The label selector as a query string would carry it; not together with requirements." }),
    requirements: arr(labelSelectorRequirement, { description: "The parsed requirements; not together with rawSelector." }),
  },
  { name: authorizationType("LabelSelectorAttributes"), description: "A label selector the request is limited to." },
);

const resourceAttributes = obj(
  {
    fieldSelector: describe(fieldSelectorAttributes, "The field selector of a list or watch."),
    group: str({ description: "API group of the resource; \"*\" means all." }),
    labelSelector: describe(labelSelectorAttributes, "The label selector of a list or watch."),
    name: str({ description: "Name of the object; empty means all." }),
    namespace: str({ description: "Namespace of the request; empty means all namespaces for namespaced resources." }),
    resource: str({ description: "The resource; \"*\" means all." }),
    subresource: str({ description: "The subresource; empty means none." }),
    verb: str({ description: "The verb: get, list, watch, create, update, patch, delete, ...; \"*\" means all." }),
    version: str({ description: "API version of the resource; \"*\" means all." }),
  },
  { name: authorizationType("ResourceAttributes"), description: "A request on a resource, as the authorizer sees it." },
);

const nonResourceAttributes = obj(
  {
    path: str({ description: "The URL path." }),
    verb: str({ description: "The HTTP verb, lower case (get, post, ...)." }),
  },
  { name: authorizationType("NonResourceAttributes"), description: "A request on a path outside the resource API." },
);

const subjectAccessReviewSpec = obj(
  {
    extra: map(arr(str()), { description: "Further facts about the user, as an authenticator would record them." }),
    groups: strings("Groups of the user to check."),
    nonResourceAttributes: describe(nonResourceAttributes, "A non-resource request to check; exactly one of the two attribute sets."),
    resourceAttributes: describe(resourceAttributes, "A resource request to check; exactly one of the two attribute sets."),
    uid: str({ description: "UID of the user to check." }),
    user: str({ description: "The user to check; user or groups must be set." }),
  },
  { name: authorizationType("SubjectAccessReviewSpec"), description: "Which user asks for what." },
);

const subjectAccessReviewStatus = obj(
  {
    allowed: bool({ description: "True when the request would be allowed." }),
    denied: bool({ description: "True when the request is explicitly denied (allowed is then false)." }),
    evaluationError: str({ description: "What went wrong while deciding; the answer may still be usable." }),
    reason: str({ description: "Why the request is allowed or denied." }),
  },
  { name: authorizationType("SubjectAccessReviewStatus"), description: "The decision.", required: ["allowed"] },
);

const accessReviewStatus = describe(subjectAccessReviewStatus, "Filled in by the server: the decision.");

export const subjectAccessReviewSchema = resource(
  "SubjectAccessReview",
  { spec: describe(subjectAccessReviewSpec, "The user and request to check."), status: accessReviewStatus },
  { description: "Asks whether a user may make a request. Answered at once, never stored.", required: ["spec"], api: authorizationApi },
);

export const localSubjectAccessReviewSchema = resource(
  "LocalSubjectAccessReview",
  {
    spec: describe(subjectAccessReviewSpec, "The user and request to check; the namespace must be the review's own."),
    status: accessReviewStatus,
  },
  { description: "Asks whether a user may make a request in one namespace. Answered at once, never stored.", required: ["spec"], api: authorizationApi },
);

const selfSubjectAccessReviewSpec = obj(
  {
    nonResourceAttributes: describe(nonResourceAttributes, "A non-resource request to check; exactly one of the two attribute sets."),
    resourceAttributes: describe(resourceAttributes, "A resource request to check; exactly one of the two attribute sets."),
  },
  { name: authorizationType("SelfSubjectAccessReviewSpec"), description: "The request to check for the caller." },
);

export const selfSubjectAccessReviewSchema = resource(
  "SelfSubjectAccessReview",
  { spec: describe(selfSubjectAccessReviewSpec, "The request to check."), status: accessReviewStatus },
  { description: "Asks whether the caller may make a request (kubectl auth can-i). Answered at once, never stored.", required: ["spec"], api: authorizationApi },
);

const selfSubjectRulesReviewSpec = obj(
  { namespace: str({ description: "The namespace to list the caller's rules in." }) },
  { name: authorizationType("SelfSubjectRulesReviewSpec"), description: "Where to list the caller's rules." },
);

const resourceRule = obj(
  {
    apiGroups: strings("API groups of the resources; \"*\" means all."),
    resourceNames: strings("Names the rule is limited to; empty means all."),
    resources: strings("Resources the rule covers; \"*\" means all."),
    verbs: strings("Verbs allowed; \"*\" means all."),
  },
  { name: authorizationType("ResourceRule"), description: "Verbs the caller may use on resources.", required: ["verbs"] },
);

const nonResourceRule = obj(
  {
    nonResourceURLs: strings("Paths the rule covers; a trailing * matches any suffix."),
    verbs: strings("Verbs allowed; \"*\" means all."),
  },
  { name: authorizationType("NonResourceRule"), description: "Verbs the caller may use on paths outside the resource API.", required: ["verbs"] },
);

const subjectRulesReviewStatus = obj(
  {
    evaluationError: str({ description: "What went wrong while listing; the list may then be incomplete." }),
    incomplete: bool({ description: "True when the authorizer could not list every rule." }),
    nonResourceRules: arr(nonResourceRule, { description: "Rules on paths outside the resource API." }),
    resourceRules: arr(resourceRule, { description: "Rules on resources." }),
  },
  {
    name: authorizationType("SubjectRulesReviewStatus"),
    description: "The caller's rules in the namespace.",
    required: ["resourceRules", "nonResourceRules", "incomplete"],
  },
);

export const selfSubjectRulesReviewSchema = resource(
  "SelfSubjectRulesReview",
  {
    spec: describe(selfSubjectRulesReviewSpec, "Where to list the rules."),
    status: describe(subjectRulesReviewStatus, "Filled in by the server: the rules."),
  },
  { description: "Lists what the caller may do in a namespace (kubectl auth can-i --list). Answered at once, never stored.", required: ["spec"], api: authorizationApi },
);

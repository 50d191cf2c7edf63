// Realistic CustomResourceDefinition schemas, shaped after well-known projects' CRDs (a cert-manager-like
// Certificate, a Prometheus-operator-like ServiceMonitor, an Argo CD-like Application), written for our tests and
// examples. They are structural, as kube requires of a v1 CRD.
import type { JSONSchemaProps } from "./types";

const conditions: JSONSchemaProps = {
  type: "array",
  "x-kubernetes-list-type": "map",
  "x-kubernetes-list-map-keys": ["type"],
  items: {
    type: "object",
    required: ["status", "type"],
    properties: {
      type: { type: "string" },
      status: { type: "string", enum: ["True", "False", "Unknown"] },
      reason: { type: "string" },
      message: { type: "string" },
      lastTransitionTime: { type: "string", format: "date-time" },
      observedGeneration: { type: "integer", format: "int64", minimum: 0 },
    },
  },
};

export const certificateSchema: JSONSchemaProps = {
  type: "object",
  description: "A Certificate resource should be created to ensure an up to date and signed X.509 certificate is stored in the Kubernetes Secret resource named in spec.secretName.",
  required: ["spec"],
  properties: {
    apiVersion: { type: "string" },
    kind: { type: "string" },
    metadata: { type: "object" },
    spec: {
      type: "object",
      required: ["issuerRef", "secretName"],
      "x-kubernetes-validations": [
        { rule: "!has(self.privateKey) || self.privateKey.algorithm != 'Ed25519' || !has(self.privateKey.size)", message: "size may not be set for Ed25519 keys", fieldPath: ".privateKey.size" },
        { rule: "has(self.commonName) || (has(self.dnsNames) && size(self.dnsNames) > 0)", message: "at least one of commonName or dnsNames must be set" },
      ],
      properties: {
        secretName: { type: "string", minLength: 1, maxLength: 253 },
        commonName: { type: "string", maxLength: 64 },
        dnsNames: { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" },
        duration: { type: "string" },
        renewBefore: { type: "string" },
        isCA: { type: "boolean" },
        revisionHistoryLimit: { type: "integer", format: "int32", minimum: 1 },
        usages: {
          type: "array",
          items: { type: "string", enum: ["signing", "digital signature", "key encipherment", "server auth", "client auth"] },
        },
        issuerRef: {
          type: "object",
          required: ["name"],
          properties: {
            name: { type: "string" },
            kind: { type: "string", default: "Issuer" },
            group: { type: "string", default: "cert-manager.io" },
          },
        },
        privateKey: {
          type: "object",
          properties: {
            algorithm: { type: "string", enum: ["RSA", "ECDSA", "Ed25519"], default: "RSA" },
            encoding: { type: "string", enum: ["PKCS1", "PKCS8"] },
            rotationPolicy: { type: "string", enum: ["Never", "Always"] },
            size: { type: "integer" },
          },
        },
        secretTemplate: {
          type: "object",
          properties: {
            annotations: { type: "object", additionalProperties: { type: "string" } },
            labels: { type: "object", additionalProperties: { type: "string" } },
          },
        },
      },
    },
    status: {
      type: "object",
      properties: {
        conditions,
        notAfter: { type: "string", format: "date-time" },
        revision: { type: "integer" },
      },
    },
  },
};

export const serviceMonitorSchema: JSONSchemaProps = {
  type: "object",
  required: ["spec"],
  properties: {
    apiVersion: { type: "string" },
    kind: { type: "string" },
    metadata: { type: "object" },
    spec: {
      type: "object",
      required: ["selector"],
      properties: {
        jobLabel: { type: "string" },
        sampleLimit: { type: "integer", format: "int64" },
        endpoints: {
          type: "array",
          items: {
            type: "object",
            properties: {
              port: { type: "string" },
              targetPort: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] },
              path: { type: "string" },
              scheme: { type: "string", enum: ["http", "https"] },
              interval: { type: "string", pattern: "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$" },
              honorLabels: { type: "boolean", default: false },
              params: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } },
              relabelings: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    action: { type: "string", default: "replace", enum: ["replace", "Replace", "keep", "Keep", "drop", "Drop", "labelmap", "LabelMap"] },
                    regex: { type: "string" },
                    sourceLabels: { type: "array", items: { type: "string", pattern: "^[a-zA-Z_][a-zA-Z0-9_]*$" } },
                    targetLabel: { type: "string" },
                  },
                },
              },
            },
          },
        },
        namespaceSelector: {
          type: "object",
          properties: { any: { type: "boolean" }, matchNames: { type: "array", items: { type: "string" } } },
        },
        selector: {
          type: "object",
          "x-kubernetes-map-type": "atomic",
          properties: {
            matchExpressions: {
              type: "array",
              items: {
                type: "object",
                required: ["key", "operator"],
                properties: {
                  key: { type: "string" },
                  operator: { type: "string" },
                  values: { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "atomic" },
                },
              },
              "x-kubernetes-list-type": "atomic",
            },
            matchLabels: { type: "object", additionalProperties: { type: "string" } },
          },
        },
      },
    },
  },
};

export const applicationSchema: JSONSchemaProps = {
  type: "object",
  required: ["metadata", "spec"],
  properties: {
    apiVersion: { type: "string" },
    kind: { type: "string" },
    metadata: { type: "object" },
    operation: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    spec: {
      type: "object",
      required: ["destination", "project"],
      properties: {
        project: { type: "string" },
        destination: {
          type: "object",
          properties: { name: { type: "string" }, namespace: { type: "string" }, server: { type: "string" } },
        },
        source: {
          type: "object",
          required: ["repoURL"],
          properties: {
            repoURL: { type: "string" },
            path: { type: "string" },
            targetRevision: { type: "string" },
            helm: {
              type: "object",
              properties: {
                valueFiles: { type: "array", items: { type: "string" } },
                parameters: {
                  type: "array",
                  items: { type: "object", properties: { name: { type: "string" }, value: { type: "string" }, forceString: { type: "boolean" } } },
                },
                valuesObject: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
              },
            },
          },
        },
        syncPolicy: {
          type: "object",
          properties: {
            automated: { type: "object", properties: { prune: { type: "boolean" }, selfHeal: { type: "boolean" } } },
            syncOptions: { type: "array", items: { type: "string" } },
            retry: {
              type: "object",
              properties: {
                limit: { type: "integer", format: "int64" },
                backoff: {
                  type: "object",
                  properties: {
                    duration: { type: "string" },
                    factor: { type: "integer", format: "int64" },
                    maxDuration: { type: "string" },
                  },
                },
              },
            },
          },
        },
        ignoreDifferences: {
          type: "array",
          items: {
            type: "object",
            required: ["kind"],
            properties: {
              group: { type: "string" },
              kind: { type: "string" },
              name: { type: "string" },
              jsonPointers: { type: "array", items: { type: "string" } },
            },
          },
        },
      },
    },
    status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
  },
};

const routeMatch: JSONSchemaProps = {
  type: "object",
  properties: {
    path: {
      type: "object",
      default: { type: "PathPrefix", value: "/" },
      properties: {
        type: { type: "string", enum: ["Exact", "PathPrefix", "RegularExpression"], default: "PathPrefix" },
        value: { type: "string", maxLength: 1024, default: "/" },
      },
      "x-kubernetes-validations": [
        { rule: "self.type in ['Exact', 'PathPrefix'] ? self.value.startsWith('/') : true", message: "value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']" },
        { rule: "self.type in ['Exact', 'PathPrefix'] ? !self.value.contains('//') : true", message: "must not contain '//' when type one of ['Exact', 'PathPrefix']" },
      ],
    },
    headers: {
      type: "array",
      maxItems: 16,
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["name"],
      items: {
        type: "object",
        required: ["name", "value"],
        properties: { name: { type: "string", maxLength: 256, minLength: 1 }, value: { type: "string", maxLength: 4096, minLength: 1 } },
      },
    },
  },
};

/** A route resource shaped after Gateway API's HTTPRoute: many CEL rules, list-maps, defaults and bounds. */
export const routeSchema: JSONSchemaProps = {
  type: "object",
  properties: {
    apiVersion: { type: "string" },
    kind: { type: "string" },
    metadata: { type: "object" },
    spec: {
      type: "object",
      properties: {
        hostnames: {
          type: "array",
          maxItems: 16,
          items: { type: "string", maxLength: 253, minLength: 1, pattern: "^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$" },
        },
        rules: {
          type: "array",
          maxItems: 16,
          default: [{ matches: [{ path: { type: "PathPrefix", value: "/" } }] }],
          "x-kubernetes-validations": [
            { rule: "self.all(l1, !has(l1.name) || self.exists_one(l2, has(l2.name) && l1.name == l2.name))", message: "Rule name must be unique within the route" },
            { rule: "(self.size() > 0 ? (has(self[0].matches) ? self[0].matches.size() : 0) : 0) + (self.size() > 1 ? (has(self[1].matches) ? self[1].matches.size() : 0) : 0) <= 128", message: "While 16 rules and 64 matches per rule are allowed, the total number of matches across all rules in a route must be less than 128" },
          ],
          items: {
            type: "object",
            properties: {
              name: { type: "string", maxLength: 253, minLength: 1, pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$" },
              matches: { type: "array", maxItems: 64, items: routeMatch, default: [{ path: { type: "PathPrefix", value: "/" } }] },
              timeouts: {
                type: "object",
                properties: {
                  request: { type: "string", pattern: "^([0-9]{1,5}(h|m|s|ms)){1,4}$" },
                  backendRequest: { type: "string", pattern: "^([0-9]{1,5}(h|m|s|ms)){1,4}$" },
                },
                "x-kubernetes-validations": [
                  { rule: "!(has(self.request) && has(self.backendRequest) && duration(self.request) != duration('0s') && duration(self.backendRequest) > duration(self.request))", message: "backendRequest timeout cannot be longer than request timeout" },
                ],
              },
              backendRefs: {
                type: "array",
                maxItems: 16,
                items: {
                  type: "object",
                  required: ["name"],
                  properties: {
                    group: { type: "string", default: "", maxLength: 253 },
                    kind: { type: "string", default: "Service", maxLength: 63 },
                    name: { type: "string", maxLength: 253, minLength: 1 },
                    port: { type: "integer", format: "int32", minimum: 1, maximum: 65535 },
                    weight: { type: "integer", format: "int32", default: 1, minimum: 0, maximum: 1000000 },
                  },
                  "x-kubernetes-validations": [
                    { rule: "(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true", message: "Must have port for Service reference" },
                  ],
                },
              },
            },
          },
        },
      },
    },
  },
};

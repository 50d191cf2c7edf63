// Container shape of spec section 2.13, shared by `spec.containers` and `spec.initContainers`.
import type { ObjectFieldSelector, ResourceFieldSelector } from "./volume-source";
import type { ResourceRequirements } from "./resource-list";

export interface SELinuxOptions {
  level?: string;
  role?: string;
  type?: string;
  user?: string;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    configMapKeyRef?: { key?: string; name?: string; optional?: boolean };
    fieldRef?: ObjectFieldSelector;
    resourceFieldRef?: ResourceFieldSelector;
    secretKeyRef?: { key?: string; name?: string; optional?: boolean };
  };
}

export interface EnvFromSource {
  configMapRef?: { name?: string; optional?: boolean };
  prefix?: string;
  secretRef?: { name?: string; optional?: boolean };
}

export interface HTTPGetAction {
  host?: string;
  httpHeaders?: { name: string; value: string }[];
  path?: string;
  port?: number | string;
  scheme?: string;
}

export interface Handler {
  exec?: { command?: string[] };
  httpGet?: HTTPGetAction;
  tcpSocket?: { host?: string; port?: number | string };
}

export interface Probe extends Handler {
  failureThreshold?: number;
  initialDelaySeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  timeoutSeconds?: number;
}

export interface ContainerPort {
  containerPort: number;
  hostIP?: string;
  hostPort?: number;
  name?: string;
  protocol?: string;
}

export interface VolumeMount {
  mountPath: string;
  mountPropagation?: string;
  name: string;
  readOnly?: boolean;
  subPath?: string;
}

export interface ContainerSecurityContext {
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  privileged?: boolean;
  readOnlyRootFilesystem?: boolean;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  seLinuxOptions?: SELinuxOptions;
}

export interface Container {
  args?: string[];
  command?: string[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  image?: string;
  imagePullPolicy?: string;
  lifecycle?: { postStart?: Handler; preStop?: Handler };
  livenessProbe?: Probe;
  name: string;
  ports?: ContainerPort[];
  readinessProbe?: Probe;
  resources?: ResourceRequirements;
  securityContext?: ContainerSecurityContext;
  stdin?: boolean;
  stdinOnce?: boolean;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  tty?: boolean;
  volumeDevices?: { devicePath: string; name: string }[];
  volumeMounts?: VolumeMount[];
  workingDir?: string;
  /** Fields newer than the spec (e.g. an init container's `restartPolicy`) pass through untyped. */
  [key: string]: unknown;
}

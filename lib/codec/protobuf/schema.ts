// Protobuf field declarations for the kinds Cluster Core accepts and answers as `application/vnd.kubernetes.protobuf`
// (request kinds in KINDS; response kinds, lists, metadata views and WatchEvent in RESPONSE_KINDS/META_MESSAGES).
//
// Only wire facts live here: message names, field numbers, JSON names and the Go shape of each field (which
// decides what the JSON form shows). They were taken from Kubernetes v1.32's core/v1, meta/v1, rbac/v1,
// authentication/v1 and authorization/v1 `generated.proto` descriptors and the Go struct tags of the same
// types, plus OpenShift's security/v1 (see lib/codec/README.md). Message names share one namespace: a name
// two packages both use must mean the same wire shape (only ExtraValue does, and it is a well-known type). One field is written `"<number> <jsonName> <type>"`:
//
//   <type>      string | bool | int32 | int64 | bytes | <Message>  (one value)
//               <type>[]                                           (repeated; omitted from JSON when empty)
//               map<string> | map<bytes> | map<Quantity|ExtraValue> (map<string,V>; omitted when empty)
//   prefix *    a Go pointer (optional): shown whenever it is on the wire, even when zero (`false`, `0`, `""`)
//   prefix !    a Go value without `omitempty`: always shown, zero if absent
//   no prefix   a Go value with `omitempty`: scalars are hidden when zero; messages (Go structs) are always
//               shown, as `{}` when empty (Go's encoding/json never omits a struct)
//   prefix ~    a field current Kubernetes dropped (ObjectMeta.clusterName): read like omitempty, and the
//               test encoder writes it only when set, as today's clients (which lack it) never send it
//   (inline)    instead of a JSON name: the message's fields are merged into the parent object
//
// Well-known messages decoded to JSON scalars: Time (RFC 3339, seconds), MicroTime (RFC 3339, microseconds),
// Quantity (its string), IntOrString (number or string), FieldsV1 (embedded JSON), and ExtraValue
// (authentication/authorization `ExtraValue{items=1}`, a Go []string: a JSON array of strings).

export type MessageTable = Record<string, readonly string[]>;

/** k8s.io/api/core/v1 and k8s.io/apimachinery/pkg/apis/meta/v1 messages reachable from the served kinds. */
export const CORE_MESSAGES: MessageTable = {
  Affinity: ["1 nodeAffinity *NodeAffinity", "2 podAffinity *PodAffinity", "3 podAntiAffinity *PodAntiAffinity"],
  AppArmorProfile: ["1 type !string", "2 localhostProfile *string"],
  AWSElasticBlockStoreVolumeSource: ["1 volumeID !string", "2 fsType string", "3 partition int32", "4 readOnly bool"],
  AzureDiskVolumeSource: [
    "1 diskName !string", "2 diskURI !string", "3 cachingMode *string", "4 fsType *string", "5 readOnly *bool",
    "6 kind *string",
  ],
  AzureFilePersistentVolumeSource: [
    "1 secretName !string", "2 shareName !string", "3 readOnly bool", "4 secretNamespace *string",
  ],
  AzureFileVolumeSource: ["1 secretName !string", "2 shareName !string", "3 readOnly bool"],
  Capabilities: ["1 add string[]", "2 drop string[]"],
  CephFSPersistentVolumeSource: [
    "1 monitors string[]", "2 path string", "3 user string", "4 secretFile string", "5 secretRef *SecretReference",
    "6 readOnly bool",
  ],
  CephFSVolumeSource: [
    "1 monitors string[]", "2 path string", "3 user string", "4 secretFile string", "5 secretRef *LocalObjectReference",
    "6 readOnly bool",
  ],
  CinderPersistentVolumeSource: [
    "1 volumeID !string", "2 fsType string", "3 readOnly bool", "4 secretRef *SecretReference",
  ],
  CinderVolumeSource: ["1 volumeID !string", "2 fsType string", "3 readOnly bool", "4 secretRef *LocalObjectReference"],
  ClientIPConfig: ["1 timeoutSeconds *int32"],
  ClusterTrustBundleProjection: [
    "1 name *string", "2 signerName *string", "3 labelSelector *LabelSelector", "4 path !string", "5 optional *bool",
  ],
  Condition: [
    "1 type !string", "2 status !string", "3 observedGeneration int64", "4 lastTransitionTime Time", "5 reason !string",
    "6 message !string",
  ],
  ConfigMap: ["1 metadata ObjectMeta", "2 data map<string>", "3 binaryData map<bytes>", "4 immutable *bool"],
  ConfigMapEnvSource: ["1 (inline) LocalObjectReference", "2 optional *bool"],
  ConfigMapKeySelector: ["1 (inline) LocalObjectReference", "2 key !string", "3 optional *bool"],
  ConfigMapProjection: ["1 (inline) LocalObjectReference", "2 items KeyToPath[]", "4 optional *bool"],
  ConfigMapVolumeSource: [
    "1 (inline) LocalObjectReference", "2 items KeyToPath[]", "3 defaultMode *int32", "4 optional *bool",
  ],
  Container: [
    "1 name !string", "2 image string", "3 command string[]", "4 args string[]", "5 workingDir string",
    "6 ports ContainerPort[]", "7 env EnvVar[]", "8 resources ResourceRequirements", "9 volumeMounts VolumeMount[]",
    "10 livenessProbe *Probe", "11 readinessProbe *Probe", "12 lifecycle *Lifecycle",
    "13 terminationMessagePath string", "14 imagePullPolicy string", "15 securityContext *SecurityContext",
    "16 stdin bool", "17 stdinOnce bool", "18 tty bool", "19 envFrom EnvFromSource[]",
    "20 terminationMessagePolicy string", "21 volumeDevices VolumeDevice[]", "22 startupProbe *Probe",
    "23 resizePolicy ContainerResizePolicy[]", "24 restartPolicy *string",
  ],
  ContainerPort: [
    "1 name string", "2 hostPort int32", "3 containerPort !int32", "4 protocol string", "5 hostIP string",
  ],
  ContainerResizePolicy: ["1 resourceName !string", "2 restartPolicy !string"],
  ContainerState: [
    "1 waiting *ContainerStateWaiting", "2 running *ContainerStateRunning", "3 terminated *ContainerStateTerminated",
  ],
  ContainerStateRunning: ["1 startedAt Time"],
  ContainerStateTerminated: [
    "1 exitCode !int32", "2 signal int32", "3 reason string", "4 message string", "5 startedAt Time",
    "6 finishedAt Time", "7 containerID string",
  ],
  ContainerStateWaiting: ["1 reason string", "2 message string"],
  ContainerStatus: [
    "1 name !string", "2 state ContainerState", "3 lastState ContainerState", "4 ready !bool", "5 restartCount !int32",
    "6 image !string", "7 imageID !string", "8 containerID string", "9 started *bool",
    "10 allocatedResources map<Quantity>", "11 resources *ResourceRequirements", "12 volumeMounts VolumeMountStatus[]",
    "13 user *ContainerUser", "14 allocatedResourcesStatus ResourceStatus[]",
  ],
  ContainerUser: ["1 linux *LinuxContainerUser"],
  CSIPersistentVolumeSource: [
    "1 driver !string", "2 volumeHandle !string", "3 readOnly bool", "4 fsType string",
    "5 volumeAttributes map<string>", "6 controllerPublishSecretRef *SecretReference",
    "7 nodeStageSecretRef *SecretReference", "8 nodePublishSecretRef *SecretReference",
    "9 controllerExpandSecretRef *SecretReference", "10 nodeExpandSecretRef *SecretReference",
  ],
  CSIVolumeSource: [
    "1 driver !string", "2 readOnly *bool", "3 fsType *string", "4 volumeAttributes map<string>",
    "5 nodePublishSecretRef *LocalObjectReference",
  ],
  DeleteOptions: [
    "1 gracePeriodSeconds *int64", "2 preconditions *Preconditions", "3 orphanDependents *bool",
    "4 propagationPolicy *string", "5 dryRun string[]", "6 ignoreStoreReadErrorWithClusterBreakingPotential *bool",
  ],
  DownwardAPIProjection: ["1 items DownwardAPIVolumeFile[]"],
  DownwardAPIVolumeFile: [
    "1 path !string", "2 fieldRef *ObjectFieldSelector", "3 resourceFieldRef *ResourceFieldSelector", "4 mode *int32",
  ],
  DownwardAPIVolumeSource: ["1 items DownwardAPIVolumeFile[]", "2 defaultMode *int32"],
  EmptyDirVolumeSource: ["1 medium string", "2 sizeLimit *Quantity"],
  EndpointAddress: ["1 ip !string", "2 targetRef *ObjectReference", "3 hostname string", "4 nodeName *string"],
  EndpointPort: ["1 name string", "2 port !int32", "3 protocol string", "4 appProtocol *string"],
  Endpoints: ["1 metadata ObjectMeta", "2 subsets EndpointSubset[]"],
  EndpointSubset: ["1 addresses EndpointAddress[]", "2 notReadyAddresses EndpointAddress[]", "3 ports EndpointPort[]"],
  EnvFromSource: ["1 prefix string", "2 configMapRef *ConfigMapEnvSource", "3 secretRef *SecretEnvSource"],
  EnvVar: ["1 name !string", "2 value string", "3 valueFrom *EnvVarSource"],
  EnvVarSource: [
    "1 fieldRef *ObjectFieldSelector", "2 resourceFieldRef *ResourceFieldSelector",
    "3 configMapKeyRef *ConfigMapKeySelector", "4 secretKeyRef *SecretKeySelector",
  ],
  EphemeralContainer: ["1 (inline) EphemeralContainerCommon", "2 targetContainerName string"],
  EphemeralContainerCommon: [
    "1 name !string", "2 image string", "3 command string[]", "4 args string[]", "5 workingDir string",
    "6 ports ContainerPort[]", "7 env EnvVar[]", "8 resources ResourceRequirements", "9 volumeMounts VolumeMount[]",
    "10 livenessProbe *Probe", "11 readinessProbe *Probe", "12 lifecycle *Lifecycle",
    "13 terminationMessagePath string", "14 imagePullPolicy string", "15 securityContext *SecurityContext",
    "16 stdin bool", "17 stdinOnce bool", "18 tty bool", "19 envFrom EnvFromSource[]",
    "20 terminationMessagePolicy string", "21 volumeDevices VolumeDevice[]", "22 startupProbe *Probe",
    "23 resizePolicy ContainerResizePolicy[]", "24 restartPolicy *string",
  ],
  EphemeralVolumeSource: ["1 volumeClaimTemplate *PersistentVolumeClaimTemplate"],
  Event: [
    "1 metadata ObjectMeta", "2 involvedObject ObjectReference", "3 reason string", "4 message string",
    "5 source EventSource", "6 firstTimestamp Time", "7 lastTimestamp Time", "8 count int32", "9 type string",
    "10 eventTime MicroTime", "11 series *EventSeries", "12 action string", "13 related *ObjectReference",
    "14 reportingComponent !string", "15 reportingInstance !string",
  ],
  EventSeries: ["1 count int32", "2 lastObservedTime MicroTime"],
  EventSource: ["1 component string", "2 host string"],
  ExecAction: ["1 command string[]"],
  FCVolumeSource: ["1 targetWWNs string[]", "2 lun *int32", "3 fsType string", "4 readOnly bool", "5 wwids string[]"],
  FlexPersistentVolumeSource: [
    "1 driver !string", "2 fsType string", "3 secretRef *SecretReference", "4 readOnly bool", "5 options map<string>",
  ],
  FlexVolumeSource: [
    "1 driver !string", "2 fsType string", "3 secretRef *LocalObjectReference", "4 readOnly bool",
    "5 options map<string>",
  ],
  FlockerVolumeSource: ["1 datasetName string", "2 datasetUUID string"],
  GCEPersistentDiskVolumeSource: ["1 pdName !string", "2 fsType string", "3 partition int32", "4 readOnly bool"],
  GitRepoVolumeSource: ["1 repository !string", "2 revision string", "3 directory string"],
  GlusterfsPersistentVolumeSource: [
    "1 endpoints !string", "2 path !string", "3 readOnly bool", "4 endpointsNamespace *string",
  ],
  GlusterfsVolumeSource: ["1 endpoints !string", "2 path !string", "3 readOnly bool"],
  GRPCAction: ["1 port !int32", "2 service *string"],
  HostAlias: ["1 ip !string", "2 hostnames string[]"],
  HostIP: ["1 ip !string"],
  HostPathVolumeSource: ["1 path !string", "2 type *string"],
  HTTPGetAction: [
    "1 path string", "2 port IntOrString", "3 host string", "4 scheme string", "5 httpHeaders HTTPHeader[]",
  ],
  HTTPHeader: ["1 name !string", "2 value !string"],
  ImageVolumeSource: ["1 reference string", "2 pullPolicy string"],
  Initializer: ["1 name !string"],
  Initializers: ["1 pending Initializer[]", "2 result *Status"],
  ISCSIPersistentVolumeSource: [
    "1 targetPortal !string", "2 iqn !string", "3 lun !int32", "4 iscsiInterface string", "5 fsType string",
    "6 readOnly bool", "7 portals string[]", "8 chapAuthDiscovery bool", "10 secretRef *SecretReference",
    "11 chapAuthSession bool", "12 initiatorName *string",
  ],
  ISCSIVolumeSource: [
    "1 targetPortal !string", "2 iqn !string", "3 lun !int32", "4 iscsiInterface string", "5 fsType string",
    "6 readOnly bool", "7 portals string[]", "8 chapAuthDiscovery bool", "10 secretRef *LocalObjectReference",
    "11 chapAuthSession bool", "12 initiatorName *string",
  ],
  KeyToPath: ["1 key !string", "2 path !string", "3 mode *int32"],
  LabelSelector: ["1 matchLabels map<string>", "2 matchExpressions LabelSelectorRequirement[]"],
  LabelSelectorRequirement: ["1 key !string", "2 operator !string", "3 values string[]"],
  Lifecycle: ["1 postStart *LifecycleHandler", "2 preStop *LifecycleHandler"],
  LifecycleHandler: [
    "1 exec *ExecAction", "2 httpGet *HTTPGetAction", "3 tcpSocket *TCPSocketAction", "4 sleep *SleepAction",
  ],
  LimitRange: ["1 metadata ObjectMeta", "2 spec LimitRangeSpec"],
  LimitRangeItem: [
    "1 type !string", "2 max map<Quantity>", "3 min map<Quantity>", "4 default map<Quantity>",
    "5 defaultRequest map<Quantity>", "6 maxLimitRequestRatio map<Quantity>",
  ],
  LimitRangeSpec: ["1 limits LimitRangeItem[]"],
  LinuxContainerUser: ["1 uid !int64", "2 gid !int64", "3 supplementalGroups int64[]"],
  ListMeta: ["1 selfLink string", "2 resourceVersion string", "3 continue string", "4 remainingItemCount *int64"],
  LoadBalancerIngress: ["1 ip string", "2 hostname string", "3 ipMode *string", "4 ports PortStatus[]"],
  LoadBalancerStatus: ["1 ingress LoadBalancerIngress[]"],
  LocalObjectReference: ["1 name string"],
  LocalVolumeSource: ["1 path !string", "2 fsType *string"],
  ManagedFieldsEntry: [
    "1 manager string", "2 operation string", "3 apiVersion string", "4 time *Time", "6 fieldsType string",
    "7 fieldsV1 *FieldsV1", "8 subresource string",
  ],
  ModifyVolumeStatus: ["1 targetVolumeAttributesClassName string", "2 status !string"],
  Namespace: ["1 metadata ObjectMeta", "2 spec NamespaceSpec", "3 status NamespaceStatus"],
  NamespaceCondition: [
    "1 type !string", "2 status !string", "4 lastTransitionTime Time", "5 reason string", "6 message string",
  ],
  NamespaceSpec: ["1 finalizers string[]"],
  NamespaceStatus: ["1 phase string", "2 conditions NamespaceCondition[]"],
  NFSVolumeSource: ["1 server !string", "2 path !string", "3 readOnly bool"],
  NodeAffinity: [
    "1 requiredDuringSchedulingIgnoredDuringExecution *NodeSelector",
    "2 preferredDuringSchedulingIgnoredDuringExecution PreferredSchedulingTerm[]",
  ],
  NodeSelector: ["1 nodeSelectorTerms NodeSelectorTerm[]"],
  NodeSelectorRequirement: ["1 key !string", "2 operator !string", "3 values string[]"],
  NodeSelectorTerm: ["1 matchExpressions NodeSelectorRequirement[]", "2 matchFields NodeSelectorRequirement[]"],
  ObjectFieldSelector: ["1 apiVersion string", "2 fieldPath !string"],
  ObjectMeta: [
    "1 name string", "2 generateName string", "3 namespace string", "4 selfLink string", "5 uid string",
    "6 resourceVersion string", "7 generation int64", "8 creationTimestamp Time", "9 deletionTimestamp *Time",
    "10 deletionGracePeriodSeconds *int64", "11 labels map<string>", "12 annotations map<string>",
    "13 ownerReferences OwnerReference[]", "14 finalizers string[]", "15 clusterName ~string",
    "16 initializers *Initializers", "17 managedFields ManagedFieldsEntry[]",
  ],
  ObjectReference: [
    "1 kind string", "2 namespace string", "3 name string", "4 uid string", "5 apiVersion string",
    "6 resourceVersion string", "7 fieldPath string",
  ],
  OwnerReference: [
    "1 kind !string", "3 name !string", "4 uid !string", "5 apiVersion !string", "6 controller *bool",
    "7 blockOwnerDeletion *bool",
  ],
  PersistentVolume: ["1 metadata ObjectMeta", "2 spec PersistentVolumeSpec", "3 status PersistentVolumeStatus"],
  PersistentVolumeClaim: [
    "1 metadata ObjectMeta", "2 spec PersistentVolumeClaimSpec", "3 status PersistentVolumeClaimStatus",
  ],
  PersistentVolumeClaimCondition: [
    "1 type !string", "2 status !string", "3 lastProbeTime Time", "4 lastTransitionTime Time", "5 reason string",
    "6 message string",
  ],
  PersistentVolumeClaimSpec: [
    "1 accessModes string[]", "2 resources VolumeResourceRequirements", "3 volumeName string",
    "4 selector *LabelSelector", "5 storageClassName *string", "6 volumeMode *string",
    "7 dataSource *TypedLocalObjectReference", "8 dataSourceRef *TypedObjectReference",
    "9 volumeAttributesClassName *string",
  ],
  PersistentVolumeClaimStatus: [
    "1 phase string", "2 accessModes string[]", "3 capacity map<Quantity>",
    "4 conditions PersistentVolumeClaimCondition[]", "5 allocatedResources map<Quantity>",
    "7 allocatedResourceStatuses map<string>", "8 currentVolumeAttributesClassName *string",
    "9 modifyVolumeStatus *ModifyVolumeStatus",
  ],
  PersistentVolumeClaimTemplate: ["1 metadata ObjectMeta", "2 spec PersistentVolumeClaimSpec"],
  PersistentVolumeClaimVolumeSource: ["1 claimName !string", "2 readOnly bool"],
  PersistentVolumeSource: [
    "1 gcePersistentDisk *GCEPersistentDiskVolumeSource", "2 awsElasticBlockStore *AWSElasticBlockStoreVolumeSource",
    "3 hostPath *HostPathVolumeSource", "4 glusterfs *GlusterfsPersistentVolumeSource", "5 nfs *NFSVolumeSource",
    "6 rbd *RBDPersistentVolumeSource", "7 iscsi *ISCSIPersistentVolumeSource",
    "8 cinder *CinderPersistentVolumeSource", "9 cephfs *CephFSPersistentVolumeSource", "10 fc *FCVolumeSource",
    "11 flocker *FlockerVolumeSource", "12 flexVolume *FlexPersistentVolumeSource",
    "13 azureFile *AzureFilePersistentVolumeSource", "14 vsphereVolume *VsphereVirtualDiskVolumeSource",
    "15 quobyte *QuobyteVolumeSource", "16 azureDisk *AzureDiskVolumeSource",
    "17 photonPersistentDisk *PhotonPersistentDiskVolumeSource", "18 portworxVolume *PortworxVolumeSource",
    "19 scaleIO *ScaleIOPersistentVolumeSource", "20 local *LocalVolumeSource",
    "21 storageos *StorageOSPersistentVolumeSource", "22 csi *CSIPersistentVolumeSource",
  ],
  PersistentVolumeSpec: [
    "1 capacity map<Quantity>", "2 (inline) PersistentVolumeSource", "3 accessModes string[]",
    "4 claimRef *ObjectReference", "5 persistentVolumeReclaimPolicy string", "6 storageClassName string",
    "7 mountOptions string[]", "8 volumeMode *string", "9 nodeAffinity *VolumeNodeAffinity",
    "10 volumeAttributesClassName *string",
  ],
  PersistentVolumeStatus: ["1 phase string", "2 message string", "3 reason string", "4 lastPhaseTransitionTime *Time"],
  PhotonPersistentDiskVolumeSource: ["1 pdID !string", "2 fsType string"],
  Pod: ["1 metadata ObjectMeta", "2 spec PodSpec", "3 status PodStatus"],
  PodAffinity: [
    "1 requiredDuringSchedulingIgnoredDuringExecution PodAffinityTerm[]",
    "2 preferredDuringSchedulingIgnoredDuringExecution WeightedPodAffinityTerm[]",
  ],
  PodAffinityTerm: [
    "1 labelSelector *LabelSelector", "2 namespaces string[]", "3 topologyKey !string",
    "4 namespaceSelector *LabelSelector", "5 matchLabelKeys string[]", "6 mismatchLabelKeys string[]",
  ],
  PodAntiAffinity: [
    "1 requiredDuringSchedulingIgnoredDuringExecution PodAffinityTerm[]",
    "2 preferredDuringSchedulingIgnoredDuringExecution WeightedPodAffinityTerm[]",
  ],
  PodCondition: [
    "1 type !string", "2 status !string", "3 lastProbeTime Time", "4 lastTransitionTime Time", "5 reason string",
    "6 message string",
  ],
  PodDNSConfig: ["1 nameservers string[]", "2 searches string[]", "3 options PodDNSConfigOption[]"],
  PodDNSConfigOption: ["1 name string", "2 value *string"],
  PodIP: ["1 ip !string"],
  PodOS: ["1 name !string"],
  PodReadinessGate: ["1 conditionType !string"],
  PodResourceClaim: ["1 name !string", "3 resourceClaimName *string", "4 resourceClaimTemplateName *string"],
  PodResourceClaimStatus: ["1 name !string", "2 resourceClaimName *string"],
  PodSchedulingGate: ["1 name !string"],
  PodSecurityContext: [
    "1 seLinuxOptions *SELinuxOptions", "2 runAsUser *int64", "3 runAsNonRoot *bool", "4 supplementalGroups int64[]",
    "5 fsGroup *int64", "6 runAsGroup *int64", "7 sysctls Sysctl[]", "8 windowsOptions *WindowsSecurityContextOptions",
    "9 fsGroupChangePolicy *string", "10 seccompProfile *SeccompProfile", "11 appArmorProfile *AppArmorProfile",
    "12 supplementalGroupsPolicy *string", "13 seLinuxChangePolicy *string",
  ],
  PodSpec: [
    "1 volumes Volume[]", "2 containers Container[]", "3 restartPolicy string",
    "4 terminationGracePeriodSeconds *int64", "5 activeDeadlineSeconds *int64", "6 dnsPolicy string",
    "7 nodeSelector map<string>", "8 serviceAccountName string", "9 serviceAccount string", "10 nodeName string",
    "11 hostNetwork bool", "12 hostPID bool", "13 hostIPC bool", "14 securityContext *PodSecurityContext",
    "15 imagePullSecrets LocalObjectReference[]", "16 hostname string", "17 subdomain string", "18 affinity *Affinity",
    "19 schedulerName string", "20 initContainers Container[]", "21 automountServiceAccountToken *bool",
    "22 tolerations Toleration[]", "23 hostAliases HostAlias[]", "24 priorityClassName string", "25 priority *int32",
    "26 dnsConfig *PodDNSConfig", "27 shareProcessNamespace *bool", "28 readinessGates PodReadinessGate[]",
    "29 runtimeClassName *string", "30 enableServiceLinks *bool", "31 preemptionPolicy *string",
    "32 overhead map<Quantity>", "33 topologySpreadConstraints TopologySpreadConstraint[]",
    "34 ephemeralContainers EphemeralContainer[]", "35 setHostnameAsFQDN *bool", "36 os *PodOS", "37 hostUsers *bool",
    "38 schedulingGates PodSchedulingGate[]", "39 resourceClaims PodResourceClaim[]",
    "40 resources *ResourceRequirements",
  ],
  PodStatus: [
    "1 phase string", "2 conditions PodCondition[]", "3 message string", "4 reason string", "5 hostIP string",
    "6 podIP string", "7 startTime *Time", "8 containerStatuses ContainerStatus[]", "9 qosClass string",
    "10 initContainerStatuses ContainerStatus[]", "11 nominatedNodeName string", "12 podIPs PodIP[]",
    "13 ephemeralContainerStatuses ContainerStatus[]", "14 resize string",
    "15 resourceClaimStatuses PodResourceClaimStatus[]", "16 hostIPs HostIP[]",
  ],
  PortStatus: ["1 port !int32", "2 protocol !string", "3 error *string"],
  PortworxVolumeSource: ["1 volumeID !string", "2 fsType string", "3 readOnly bool"],
  Preconditions: ["1 uid *string", "2 resourceVersion *string"],
  PreferredSchedulingTerm: ["1 weight !int32", "2 preference NodeSelectorTerm"],
  Probe: [
    "1 (inline) ProbeHandler", "2 initialDelaySeconds int32", "3 timeoutSeconds int32", "4 periodSeconds int32",
    "5 successThreshold int32", "6 failureThreshold int32", "7 terminationGracePeriodSeconds *int64",
  ],
  ProbeHandler: [
    "1 exec *ExecAction", "2 httpGet *HTTPGetAction", "3 tcpSocket *TCPSocketAction", "4 grpc *GRPCAction",
  ],
  ProjectedVolumeSource: ["1 sources VolumeProjection[]", "2 defaultMode *int32"],
  QuobyteVolumeSource: [
    "1 registry !string", "2 volume !string", "3 readOnly bool", "4 user string", "5 group string", "6 tenant string",
  ],
  RBDPersistentVolumeSource: [
    "1 monitors string[]", "2 image !string", "3 fsType string", "4 pool string", "5 user string", "6 keyring string",
    "7 secretRef *SecretReference", "8 readOnly bool",
  ],
  RBDVolumeSource: [
    "1 monitors string[]", "2 image !string", "3 fsType string", "4 pool string", "5 user string", "6 keyring string",
    "7 secretRef *LocalObjectReference", "8 readOnly bool",
  ],
  ResourceClaim: ["1 name !string", "2 request string"],
  ResourceFieldSelector: ["1 containerName string", "2 resource !string", "3 divisor Quantity"],
  ResourceHealth: ["1 resourceID !string", "2 health string"],
  ResourceQuota: ["1 metadata ObjectMeta", "2 spec ResourceQuotaSpec", "3 status ResourceQuotaStatus"],
  ResourceQuotaSpec: ["1 hard map<Quantity>", "2 scopes string[]", "3 scopeSelector *ScopeSelector"],
  ResourceQuotaStatus: ["1 hard map<Quantity>", "2 used map<Quantity>"],
  ResourceRequirements: ["1 limits map<Quantity>", "2 requests map<Quantity>", "3 claims ResourceClaim[]"],
  ResourceStatus: ["1 name !string", "2 resources ResourceHealth[]"],
  ScaleIOPersistentVolumeSource: [
    "1 gateway !string", "2 system !string", "3 secretRef *SecretReference", "4 sslEnabled bool",
    "5 protectionDomain string", "6 storagePool string", "7 storageMode string", "8 volumeName string",
    "9 fsType string", "10 readOnly bool",
  ],
  ScaleIOVolumeSource: [
    "1 gateway !string", "2 system !string", "3 secretRef *LocalObjectReference", "4 sslEnabled bool",
    "5 protectionDomain string", "6 storagePool string", "7 storageMode string", "8 volumeName string",
    "9 fsType string", "10 readOnly bool",
  ],
  ScopedResourceSelectorRequirement: ["1 scopeName !string", "2 operator !string", "3 values string[]"],
  ScopeSelector: ["1 matchExpressions ScopedResourceSelectorRequirement[]"],
  SeccompProfile: ["1 type !string", "2 localhostProfile *string"],
  Secret: [
    "1 metadata ObjectMeta", "2 data map<bytes>", "3 type string", "4 stringData map<string>", "5 immutable *bool",
  ],
  SecretEnvSource: ["1 (inline) LocalObjectReference", "2 optional *bool"],
  SecretKeySelector: ["1 (inline) LocalObjectReference", "2 key !string", "3 optional *bool"],
  SecretProjection: ["1 (inline) LocalObjectReference", "2 items KeyToPath[]", "4 optional *bool"],
  SecretReference: ["1 name string", "2 namespace string"],
  SecretVolumeSource: ["1 secretName string", "2 items KeyToPath[]", "3 defaultMode *int32", "4 optional *bool"],
  SecurityContext: [
    "1 capabilities *Capabilities", "2 privileged *bool", "3 seLinuxOptions *SELinuxOptions", "4 runAsUser *int64",
    "5 runAsNonRoot *bool", "6 readOnlyRootFilesystem *bool", "7 allowPrivilegeEscalation *bool", "8 runAsGroup *int64",
    "9 procMount *string", "10 windowsOptions *WindowsSecurityContextOptions", "11 seccompProfile *SeccompProfile",
    "12 appArmorProfile *AppArmorProfile",
  ],
  SELinuxOptions: ["1 user string", "2 role string", "3 type string", "4 level string"],
  Service: ["1 metadata ObjectMeta", "2 spec ServiceSpec", "3 status ServiceStatus"],
  ServiceAccount: [
    "1 metadata ObjectMeta", "2 secrets ObjectReference[]", "3 imagePullSecrets LocalObjectReference[]",
    "4 automountServiceAccountToken *bool",
  ],
  ServiceAccountTokenProjection: ["1 audience string", "2 expirationSeconds *int64", "3 path !string"],
  ServicePort: [
    "1 name string", "2 protocol string", "3 port !int32", "4 targetPort IntOrString", "5 nodePort int32",
    "6 appProtocol *string",
  ],
  ServiceSpec: [
    "1 ports ServicePort[]", "2 selector map<string>", "3 clusterIP string", "4 type string", "5 externalIPs string[]",
    "7 sessionAffinity string", "8 loadBalancerIP string", "9 loadBalancerSourceRanges string[]",
    "10 externalName string", "11 externalTrafficPolicy string", "12 healthCheckNodePort int32",
    "13 publishNotReadyAddresses bool", "14 sessionAffinityConfig *SessionAffinityConfig", "17 ipFamilyPolicy *string",
    "18 clusterIPs string[]", "19 ipFamilies string[]", "20 allocateLoadBalancerNodePorts *bool",
    "21 loadBalancerClass *string", "22 internalTrafficPolicy *string", "23 trafficDistribution *string",
  ],
  ServiceStatus: ["1 loadBalancer LoadBalancerStatus", "2 conditions Condition[]"],
  SessionAffinityConfig: ["1 clientIP *ClientIPConfig"],
  SleepAction: ["1 seconds !int64"],
  Status: [
    "1 metadata ListMeta", "2 status string", "3 message string", "4 reason string", "5 details *StatusDetails",
    "6 code int32",
  ],
  StatusCause: ["1 reason string", "2 message string", "3 field string"],
  StatusDetails: [
    "1 name string", "2 group string", "3 kind string", "4 causes StatusCause[]", "5 retryAfterSeconds int32",
    "6 uid string",
  ],
  StorageOSPersistentVolumeSource: [
    "1 volumeName string", "2 volumeNamespace string", "3 fsType string", "4 readOnly bool",
    "5 secretRef *ObjectReference",
  ],
  StorageOSVolumeSource: [
    "1 volumeName string", "2 volumeNamespace string", "3 fsType string", "4 readOnly bool",
    "5 secretRef *LocalObjectReference",
  ],
  Sysctl: ["1 name !string", "2 value !string"],
  TCPSocketAction: ["1 port IntOrString", "2 host string"],
  Toleration: ["1 key string", "2 operator string", "3 value string", "4 effect string", "5 tolerationSeconds *int64"],
  TopologySpreadConstraint: [
    "1 maxSkew !int32", "2 topologyKey !string", "3 whenUnsatisfiable !string", "4 labelSelector *LabelSelector",
    "5 minDomains *int32", "6 nodeAffinityPolicy *string", "7 nodeTaintsPolicy *string", "8 matchLabelKeys string[]",
  ],
  TypedLocalObjectReference: ["1 apiGroup *string", "2 kind !string", "3 name !string"],
  TypedObjectReference: ["1 apiGroup *string", "2 kind !string", "3 name !string", "4 namespace *string"],
  Volume: ["1 name !string", "2 (inline) VolumeSource"],
  VolumeDevice: ["1 name !string", "2 devicePath !string"],
  VolumeMount: [
    "1 name !string", "2 readOnly bool", "3 mountPath !string", "4 subPath string", "5 mountPropagation *string",
    "6 subPathExpr string", "7 recursiveReadOnly *string",
  ],
  VolumeMountStatus: ["1 name !string", "2 mountPath !string", "3 readOnly bool", "4 recursiveReadOnly *string"],
  VolumeNodeAffinity: ["1 required *NodeSelector"],
  VolumeProjection: [
    "1 secret *SecretProjection", "2 downwardAPI *DownwardAPIProjection", "3 configMap *ConfigMapProjection",
    "4 serviceAccountToken *ServiceAccountTokenProjection", "5 clusterTrustBundle *ClusterTrustBundleProjection",
  ],
  VolumeResourceRequirements: ["1 limits map<Quantity>", "2 requests map<Quantity>"],
  VolumeSource: [
    "1 hostPath *HostPathVolumeSource", "2 emptyDir *EmptyDirVolumeSource",
    "3 gcePersistentDisk *GCEPersistentDiskVolumeSource", "4 awsElasticBlockStore *AWSElasticBlockStoreVolumeSource",
    "5 gitRepo *GitRepoVolumeSource", "6 secret *SecretVolumeSource", "7 nfs *NFSVolumeSource",
    "8 iscsi *ISCSIVolumeSource", "9 glusterfs *GlusterfsVolumeSource",
    "10 persistentVolumeClaim *PersistentVolumeClaimVolumeSource", "11 rbd *RBDVolumeSource",
    "12 flexVolume *FlexVolumeSource", "13 cinder *CinderVolumeSource", "14 cephfs *CephFSVolumeSource",
    "15 flocker *FlockerVolumeSource", "16 downwardAPI *DownwardAPIVolumeSource", "17 fc *FCVolumeSource",
    "18 azureFile *AzureFileVolumeSource", "19 configMap *ConfigMapVolumeSource",
    "20 vsphereVolume *VsphereVirtualDiskVolumeSource", "21 quobyte *QuobyteVolumeSource",
    "22 azureDisk *AzureDiskVolumeSource", "23 photonPersistentDisk *PhotonPersistentDiskVolumeSource",
    "24 portworxVolume *PortworxVolumeSource", "25 scaleIO *ScaleIOVolumeSource", "26 projected *ProjectedVolumeSource",
    "27 storageos *StorageOSVolumeSource", "28 csi *CSIVolumeSource", "29 ephemeral *EphemeralVolumeSource",
    "30 image *ImageVolumeSource",
  ],
  VsphereVirtualDiskVolumeSource: [
    "1 volumePath !string", "2 fsType string", "3 storagePolicyName string", "4 storagePolicyID string",
  ],
  WeightedPodAffinityTerm: ["1 weight !int32", "2 podAffinityTerm PodAffinityTerm"],
  WindowsSecurityContextOptions: [
    "1 gmsaCredentialSpecName *string", "2 gmsaCredentialSpec *string", "3 runAsUserName *string",
    "4 hostProcess *bool",
  ],
};

/** github.com/openshift/api/security/v1 (SecurityContextConstraints is served as core v1 here). */
export const SECURITY_MESSAGES: MessageTable = {
  SecurityContextConstraints: [
    "1 metadata ObjectMeta", "2 priority *int32", "3 allowPrivilegedContainer !bool", "4 defaultAddCapabilities string[]",
    "5 requiredDropCapabilities string[]", "6 allowedCapabilities string[]", "7 allowHostDirVolumePlugin !bool",
    "8 volumes string[]", "9 allowHostNetwork !bool", "10 allowHostPorts !bool", "11 allowHostPID !bool",
    "12 allowHostIPC !bool", "13 seLinuxContext SELinuxContextStrategyOptions", "14 runAsUser RunAsUserStrategyOptions",
    "15 supplementalGroups SupplementalGroupsStrategyOptions", "16 fsGroup FSGroupStrategyOptions",
    "17 readOnlyRootFilesystem !bool", "18 users string[]", "19 groups string[]", "20 seccompProfiles string[]",
    "21 allowedFlexVolumes AllowedFlexVolume[]", "22 defaultAllowPrivilegeEscalation *bool",
    "23 allowPrivilegeEscalation *bool", "24 allowedUnsafeSysctls string[]", "25 forbiddenSysctls string[]",
    "26 userNamespaceLevel string",
  ],
  AllowedFlexVolume: ["1 driver !string"],
  SELinuxContextStrategyOptions: ["1 type string", "2 seLinuxOptions *SELinuxOptions"],
  RunAsUserStrategyOptions: ["1 type string", "2 uid *int64", "3 uidRangeMin *int64", "4 uidRangeMax *int64"],
  SupplementalGroupsStrategyOptions: ["1 type string", "2 ranges IDRange[]"],
  FSGroupStrategyOptions: ["1 type string", "2 ranges IDRange[]"],
  IDRange: ["1 min int64", "2 max int64"],
};

/** k8s.io/api/rbac/v1. */
export const RBAC_MESSAGES: MessageTable = {
  AggregationRule: ["1 clusterRoleSelectors LabelSelector[]"],
  ClusterRole: ["1 metadata ObjectMeta", "2 rules PolicyRule[]", "3 aggregationRule *AggregationRule"],
  ClusterRoleBinding: ["1 metadata ObjectMeta", "2 subjects Subject[]", "3 roleRef RoleRef"],
  PolicyRule: [
    "1 verbs string[]", "2 apiGroups string[]", "3 resources string[]", "4 resourceNames string[]",
    "5 nonResourceURLs string[]",
  ],
  Role: ["1 metadata ObjectMeta", "2 rules PolicyRule[]"],
  RoleBinding: ["1 metadata ObjectMeta", "2 subjects Subject[]", "3 roleRef RoleRef"],
  RoleRef: ["1 apiGroup !string", "2 kind !string", "3 name !string"],
  Subject: ["1 kind !string", "2 apiGroup string", "3 name !string", "4 namespace string"],
};

/** k8s.io/api/authentication/v1 (ExtraValue is well-known, see above). */
export const AUTHENTICATION_MESSAGES: MessageTable = {
  BoundObjectReference: ["1 kind string", "2 apiVersion string", "3 name string", "4 uid string"],
  SelfSubjectReview: ["1 metadata ObjectMeta", "2 status SelfSubjectReviewStatus"],
  SelfSubjectReviewStatus: ["1 userInfo UserInfo"],
  TokenRequest: ["1 metadata ObjectMeta", "2 spec TokenRequestSpec", "3 status TokenRequestStatus"],
  TokenRequestSpec: ["1 audiences string[]", "3 boundObjectRef *BoundObjectReference", "4 expirationSeconds *int64"],
  TokenRequestStatus: ["1 token !string", "2 expirationTimestamp Time"],
  TokenReview: ["1 metadata ObjectMeta", "2 spec TokenReviewSpec", "3 status TokenReviewStatus"],
  TokenReviewSpec: ["1 token string", "2 audiences string[]"],
  TokenReviewStatus: ["1 authenticated bool", "2 user UserInfo", "3 error string", "4 audiences string[]"],
  UserInfo: ["1 username string", "2 uid string", "3 groups string[]", "4 extra map<ExtraValue>"],
};

/** k8s.io/api/authorization/v1, and meta/v1's FieldSelectorRequirement (only reached from here). */
export const AUTHORIZATION_MESSAGES: MessageTable = {
  FieldSelectorAttributes: ["1 rawSelector string", "2 requirements FieldSelectorRequirement[]"],
  FieldSelectorRequirement: ["1 key !string", "2 operator !string", "3 values string[]"],
  LabelSelectorAttributes: ["1 rawSelector string", "2 requirements LabelSelectorRequirement[]"],
  LocalSubjectAccessReview: [
    "1 metadata ObjectMeta", "2 spec SubjectAccessReviewSpec", "3 status SubjectAccessReviewStatus",
  ],
  NonResourceAttributes: ["1 path string", "2 verb string"],
  NonResourceRule: ["1 verbs string[]", "2 nonResourceURLs string[]"],
  ResourceAttributes: [
    "1 namespace string", "2 verb string", "3 group string", "4 version string", "5 resource string",
    "6 subresource string", "7 name string", "8 fieldSelector *FieldSelectorAttributes",
    "9 labelSelector *LabelSelectorAttributes",
  ],
  ResourceRule: ["1 verbs string[]", "2 apiGroups string[]", "3 resources string[]", "4 resourceNames string[]"],
  SelfSubjectAccessReview: [
    "1 metadata ObjectMeta", "2 spec SelfSubjectAccessReviewSpec", "3 status SubjectAccessReviewStatus",
  ],
  SelfSubjectAccessReviewSpec: ["1 resourceAttributes *ResourceAttributes", "2 nonResourceAttributes *NonResourceAttributes"],
  SelfSubjectRulesReview: [
    "1 metadata ObjectMeta", "2 spec SelfSubjectRulesReviewSpec", "3 status SubjectRulesReviewStatus",
  ],
  SelfSubjectRulesReviewSpec: ["1 namespace string"],
  SubjectAccessReview: ["1 metadata ObjectMeta", "2 spec SubjectAccessReviewSpec", "3 status SubjectAccessReviewStatus"],
  SubjectAccessReviewSpec: [
    "1 resourceAttributes *ResourceAttributes", "2 nonResourceAttributes *NonResourceAttributes", "3 user string",
    "4 groups string[]", "5 extra map<ExtraValue>", "6 uid string",
  ],
  SubjectAccessReviewStatus: ["1 allowed !bool", "2 reason string", "3 evaluationError string", "4 denied bool"],
  SubjectRulesReviewStatus: [
    "1 resourceRules ResourceRule[]", "2 nonResourceRules NonResourceRule[]", "3 incomplete !bool",
    "4 evaluationError string",
  ],
};

/** k8s.io/api/coordination/v1 (client-go's leader election writes Leases as protobuf). */
export const COORDINATION_MESSAGES: MessageTable = {
  Lease: ["1 metadata ObjectMeta", "2 spec LeaseSpec"],
  LeaseSpec: [
    "1 holderIdentity *string", "2 leaseDurationSeconds *int32", "3 acquireTime *MicroTime", "4 renewTime *MicroTime",
    "5 leaseTransitions *int32", "6 strategy *string", "7 preferredHolder *string",
  ],
};

/**
 * apimachinery meta/v1 and runtime messages that only responses use: the metadata-only views
 * (`as=PartialObjectMetadata[List]`), and a watch stream's frame, `WatchEvent{type=1, object=2}` whose
 * `RawExtension{raw=1}` holds the embedded object with its own `k8s\0` + runtime.Unknown envelope.
 * (Status, StatusDetails, StatusCause and ListMeta are in CORE_MESSAGES.)
 */
export const META_MESSAGES: MessageTable = {
  PartialObjectMetadata: ["1 metadata ObjectMeta"],
  PartialObjectMetadataList: ["1 metadata ListMeta", "2 items PartialObjectMetadata[]"],
  RawExtension: ["1 raw *bytes"],
  WatchEvent: ["1 type !string", "2 object RawExtension"],
};

/** Kinds served as resources; each has a `<Kind>List{metadata=1 ListMeta, items=2 <Kind>}` (every Kubernetes list type). */
export const LISTED_KINDS: readonly string[] = [
  "ConfigMap", "Endpoints", "Event", "LimitRange", "Namespace", "PersistentVolume", "PersistentVolumeClaim", "Pod",
  "ResourceQuota", "Secret", "Service", "ServiceAccount", "SecurityContextConstraints", "Role", "ClusterRole", "RoleBinding",
  "ClusterRoleBinding", "Lease",
];

export const LIST_MESSAGES: MessageTable = Object.fromEntries(
  LISTED_KINDS.map((kind) => [`${kind}List`, ["1 metadata ListMeta", `2 items ${kind}[]`]]),
);

const RBAC = "rbac.authorization.k8s.io/v1";
const AUTHENTICATION = "authentication.k8s.io/v1";
const AUTHORIZATION = "authorization.k8s.io/v1";

/** Top-level kinds: kind -> message, and the apiVersions under which each is registered (`*` = any). */
export const KINDS: Record<string, { message: string; apiVersions: readonly string[] }> = {
  ConfigMap: { message: "ConfigMap", apiVersions: ["v1"] },
  Endpoints: { message: "Endpoints", apiVersions: ["v1"] },
  Event: { message: "Event", apiVersions: ["v1"] },
  LimitRange: { message: "LimitRange", apiVersions: ["v1"] },
  PersistentVolume: { message: "PersistentVolume", apiVersions: ["v1"] },
  PersistentVolumeClaim: { message: "PersistentVolumeClaim", apiVersions: ["v1"] },
  Pod: { message: "Pod", apiVersions: ["v1"] },
  ResourceQuota: { message: "ResourceQuota", apiVersions: ["v1"] },
  Secret: { message: "Secret", apiVersions: ["v1"] },
  Service: { message: "Service", apiVersions: ["v1"] },
  ServiceAccount: { message: "ServiceAccount", apiVersions: ["v1"] },
  Namespace: { message: "Namespace", apiVersions: ["v1"] },
  SecurityContextConstraints: { message: "SecurityContextConstraints", apiVersions: ["v1", "security.openshift.io/v1"] },
  Role: { message: "Role", apiVersions: [RBAC] },
  ClusterRole: { message: "ClusterRole", apiVersions: [RBAC] },
  RoleBinding: { message: "RoleBinding", apiVersions: [RBAC] },
  ClusterRoleBinding: { message: "ClusterRoleBinding", apiVersions: [RBAC] },
  TokenRequest: { message: "TokenRequest", apiVersions: [AUTHENTICATION] },
  TokenReview: { message: "TokenReview", apiVersions: [AUTHENTICATION] },
  SelfSubjectReview: { message: "SelfSubjectReview", apiVersions: [AUTHENTICATION] },
  SubjectAccessReview: { message: "SubjectAccessReview", apiVersions: [AUTHORIZATION] },
  SelfSubjectAccessReview: { message: "SelfSubjectAccessReview", apiVersions: [AUTHORIZATION] },
  LocalSubjectAccessReview: { message: "LocalSubjectAccessReview", apiVersions: [AUTHORIZATION] },
  SelfSubjectRulesReview: { message: "SelfSubjectRulesReview", apiVersions: [AUTHORIZATION] },
  Lease: { message: "Lease", apiVersions: ["coordination.k8s.io/v1"] },
  // meta/v1 registers DeleteOptions into every group version.
  DeleteOptions: { message: "DeleteOptions", apiVersions: ["*"] },
};

// ---- compiled form ------------------------------------------------------------------------------------

export type Scalar = "string" | "bool" | "int32" | "int64" | "bytes";
/** Messages with a JSON form of their own (not an object of their fields). */
export type WellKnown = "Time" | "MicroTime" | "Quantity" | "IntOrString" | "FieldsV1" | "ExtraValue";
export const WELL_KNOWN: ReadonlySet<string> = new Set<WellKnown>(["Time", "MicroTime", "Quantity", "IntOrString", "FieldsV1", "ExtraValue"]);
const SCALARS: ReadonlySet<string> = new Set<Scalar>(["string", "bool", "int32", "int64", "bytes"]);

export type Presence = "pointer" | "omitempty" | "always";

export interface FieldDecl {
  no: number;
  /** JSON name; "" for an inline field. */
  json: string;
  inline: boolean;
  shape: "single" | "repeated" | "map";
  /** Scalar name or message name (for a map: the value's type). */
  type: string;
  message: boolean;
  presence: Presence;
  /** Dropped from current Kubernetes types (still decoded; the encoder writes it only when set). */
  retired: boolean;
}

export interface MessageDecl {
  name: string;
  fields: ReadonlyMap<number, FieldDecl>;
  /** Fields in field-number order. */
  ordered: readonly FieldDecl[];
}

function parseField(message: string, spec: string): FieldDecl {
  const m = /^(\d+) (\(inline\)|[A-Za-z0-9]+) ([*!~]?)(map<([A-Za-z0-9]+)>|([A-Za-z0-9]+)(\[\])?)$/.exec(spec);
  if (!m) throw new Error(`protobuf schema: bad field "${spec}" in ${message}`);
  const [, no, json, prefix, , mapValue, single, repeated] = m;
  const type = mapValue ?? single;
  const shape = mapValue ? "map" : repeated ? "repeated" : "single";
  return {
    no: Number(no),
    json: json === "(inline)" ? "" : json,
    inline: json === "(inline)",
    shape,
    type,
    message: !SCALARS.has(type),
    presence: prefix === "*" ? "pointer" : prefix === "!" ? "always" : "omitempty",
    retired: prefix === "~",
  };
}

function compile(...tables: MessageTable[]): ReadonlyMap<string, MessageDecl> {
  const out = new Map<string, MessageDecl>();
  for (const table of tables) {
    for (const [name, specs] of Object.entries(table)) {
      if (out.has(name)) throw new Error(`protobuf schema: ${name} declared twice`);
      const ordered = specs.map((s) => parseField(name, s)).sort((a, b) => a.no - b.no);
      out.set(name, { name, fields: new Map(ordered.map((f) => [f.no, f])), ordered });
    }
  }
  // Every referenced message must be declared (or be a well-known one).
  for (const decl of out.values()) {
    for (const f of decl.ordered) {
      if (f.message && !out.has(f.type) && !WELL_KNOWN.has(f.type)) throw new Error(`protobuf schema: ${decl.name}.${f.json} refers to undeclared ${f.type}`);
      if (f.inline && (f.shape !== "single" || !out.has(f.type))) throw new Error(`protobuf schema: ${decl.name} inline field ${f.no} must be a single message`);
    }
  }
  return out;
}

export const MESSAGES: ReadonlyMap<string, MessageDecl> = compile(
  CORE_MESSAGES, SECURITY_MESSAGES, RBAC_MESSAGES, AUTHENTICATION_MESSAGES, AUTHORIZATION_MESSAGES,
  COORDINATION_MESSAGES, META_MESSAGES, LIST_MESSAGES,
);

/**
 * Top-level types a response may carry (runtime.Unknown's `kind`): every request kind, the lists, Status and
 * the metadata-only views. Each is encoded as the message of the same name.
 */
export const RESPONSE_KINDS: ReadonlySet<string> = new Set([
  ...Object.keys(KINDS).filter((k) => k !== "DeleteOptions"), ...Object.keys(LIST_MESSAGES), "Status",
  "PartialObjectMetadata", "PartialObjectMetadataList",
]);

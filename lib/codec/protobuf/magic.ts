// The protobuf media types and the four bytes that open every non-stream protobuf body.

export const PROTOBUF_MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
/** A watch stream: length-prefixed WatchEvent frames (response.ts). */
export const PROTOBUF_WATCH_MEDIA_TYPE = "application/vnd.kubernetes.protobuf;stream=watch";
/** "k8s\0" */
export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

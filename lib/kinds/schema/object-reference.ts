// References to other objects (spec 2.1 "Object reference shape").
import { coreType } from "./names";
import { obj, str } from "./schema";

export const objectReference = obj(
  {
    apiVersion: str({ description: "API version of the referent." }),
    fieldPath: str({ description: "A path inside the referent when the reference is to part of it, e.g. `spec.containers{app}`." }),
    kind: str({ description: "Kind of the referent." }),
    name: str({ description: "Name of the referent." }),
    namespace: str({ description: "Namespace of the referent." }),
    resourceVersion: str({ description: "Version of the referent this reference was made against." }),
    uid: str({ description: "UID of the referent." }),
  },
  { name: coreType("ObjectReference"), description: "A reference to another object, with enough detail to find and inspect it." },
);

export const localObjectReference = obj(
  { name: str({ description: "Name of the referent, in the same namespace." }) },
  { name: coreType("LocalObjectReference"), description: "A reference by name to an object in the same namespace." },
);

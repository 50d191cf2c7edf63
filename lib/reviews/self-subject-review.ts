// SelfSubjectReview (authentication.k8s.io/v1, `kubectl auth whoami`): the caller's own user info.
import type { ActionHandler } from "../registry/action-handler";
import { answer, asObject } from "./review-object";

const API_VERSION = "authentication.k8s.io/v1";

export const selfSubjectReview: ActionHandler = async ({ user, body }) => {
  const request = asObject(body, "SelfSubjectReview", API_VERSION);
  const userInfo = {
    username: user.username,
    ...(user.uid ? { uid: user.uid } : {}),
    groups: user.groups,
    ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}),
  };
  return answer("SelfSubjectReview", API_VERSION, request, undefined, { userInfo });
};

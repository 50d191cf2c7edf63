// The one handler every API route file exports (see app/api, app/apis, app/version, app/openapi, health).
import { routeHandler } from "../api/fetch-adapter";
import { getRuntime } from "./runtime";

export const apiRoute = routeHandler(getRuntime);

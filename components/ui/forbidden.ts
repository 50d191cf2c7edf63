import { ApiError } from "@/lib/client/api-error";

export const isForbidden = (e: unknown): e is ApiError => e instanceof ApiError && e.code === 403;

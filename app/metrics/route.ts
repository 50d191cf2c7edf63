import { apiRoute } from "@/lib/server/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export { apiRoute as GET, apiRoute as POST, apiRoute as PUT, apiRoute as PATCH, apiRoute as DELETE };

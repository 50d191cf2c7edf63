import { defineConfig } from "prisma/config";

// Offline machine: `prisma generate` never needs the schema engine, and the update check is off.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/true";
process.env.CHECKPOINT_DISABLE ??= "1";

export default defineConfig({ schema: "prisma/schema.sqlite.prisma" });

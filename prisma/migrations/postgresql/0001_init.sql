CREATE TABLE "Revision" (
    "id" INTEGER NOT NULL,
    "rev" BIGINT NOT NULL,
    CONSTRAINT "Revision_pkey" PRIMARY KEY ("id")
);
INSERT INTO "Revision" ("id", "rev") VALUES (1, 0);
CREATE TABLE "LogEntry" (
    "rev" BIGINT NOT NULL,
    "resource" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "object" TEXT NOT NULL,
    "createdAt" BIGINT NOT NULL,
    CONSTRAINT "LogEntry_pkey" PRIMARY KEY ("rev")
);
CREATE INDEX "LogEntry_createdAt_idx" ON "LogEntry"("createdAt");
CREATE TABLE "CurrentObject" (
    "resource" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "rev" BIGINT NOT NULL,
    "object" TEXT NOT NULL,
    CONSTRAINT "CurrentObject_pkey" PRIMARY KEY ("resource", "namespace", "name")
);

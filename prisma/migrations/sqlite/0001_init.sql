CREATE TABLE "Revision" (
    "id" INTEGER NOT NULL PRIMARY KEY,
    "rev" BIGINT NOT NULL
);
INSERT INTO "Revision" ("id", "rev") VALUES (1, 0);
CREATE TABLE "LogEntry" (
    "rev" BIGINT NOT NULL PRIMARY KEY,
    "resource" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "object" TEXT NOT NULL,
    "createdAt" BIGINT NOT NULL
);
CREATE INDEX "LogEntry_createdAt_idx" ON "LogEntry"("createdAt");
CREATE TABLE "CurrentObject" (
    "resource" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "rev" BIGINT NOT NULL,
    "object" TEXT NOT NULL,
    PRIMARY KEY ("resource", "namespace", "name")
);

-- Several replicas on one store (issue 12): compaction keeps every key's latest revision (as etcd does), so a
-- replica that starts late can rebuild the watch history of the whole compaction window from the log.
CREATE INDEX "LogEntry_key_rev_idx" ON "LogEntry"("resource", "namespace", "name", "rev");
CREATE TABLE "LogCompaction" (
    "id" INTEGER NOT NULL,
    "rev" BIGINT NOT NULL,
    CONSTRAINT "LogCompaction_pkey" PRIMARY KEY ("id")
);
INSERT INTO "LogCompaction" ("id", "rev") VALUES (1, 0);

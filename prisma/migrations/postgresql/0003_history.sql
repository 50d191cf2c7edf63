-- Object history (issue 14): the log keeps each object's last HISTORY_REVISIONS entries and deleted objects for
-- HISTORY_DAYS beyond the watch window; each entry records who wrote it (JSON {"username","groups"}, '' for the server).
ALTER TABLE "LogEntry" ADD COLUMN "user" TEXT NOT NULL DEFAULT '';
CREATE INDEX "LogEntry_namespace_createdAt_idx" ON "LogEntry"("namespace", "createdAt");

-- One write batch as one statement (lib/storage/revision-log.ts, pgAllocatingBatch): revisions are allocated
-- inside the database, so replicas writing at once never conflict over the counter and never hold its lock
-- across a round trip to a server process. Every writer takes the counter row first (so row locks can never
-- deadlock, and revisions commit in order); the lock lasts until this statement's transaction commits.
-- Op i: p_types[i] is 'create', 'update' or 'delete'; its key p_resources/p_namespaces/p_names[i]; updates and
-- deletes only apply while the stored revision is p_expect[i]; its object's JSON is p_heads[i] || <revision>
-- || p_tails[i] (the JSON split around metadata.resourceVersion's value). p_after is the revision the
-- caller's cache has: the log entries other writers committed after it, before this batch, come back first
-- (at most 256; none when more are missing: the caller's tailer reads them), so the caller needs no read of
-- its own to apply its batch in order. p_users[i] is who asked (the log's "user" column, migration 0003: '' for the server). Last comes one row whose "revs" holds one number per op: the revision
-- it got, or -1 (create: exists), -2 (missing), -3 (conflict: stored at another revision).
CREATE OR REPLACE FUNCTION cluster_core_write(
    p_types TEXT[], p_resources TEXT[], p_namespaces TEXT[], p_names TEXT[], p_expect BIGINT[],
    p_heads TEXT[], p_tails TEXT[], p_now BIGINT, p_after BIGINT, p_users TEXT[]
) RETURNS TABLE ("g_rev" BIGINT, "g_resource" TEXT, "g_namespace" TEXT, "g_name" TEXT, "g_type" TEXT, "g_object" TEXT,
    "g_createdAt" BIGINT, "revs" BIGINT[]) LANGUAGE plpgsql AS $$
DECLARE
    v_start BIGINT;
    v_rev BIGINT;
    v_obj TEXT;
    v_out BIGINT[] := '{}';
    l_rev BIGINT[] := '{}';
    l_idx INTEGER[] := '{}';
    l_type TEXT[] := '{}';
    l_obj TEXT[] := '{}';
BEGIN
    SELECT "rev" INTO v_start FROM "Revision" WHERE "id" = 1 FOR UPDATE;
    v_rev := v_start;
    IF v_start - p_after <= 256 THEN
        RETURN QUERY SELECT "rev", "resource", "namespace", "name", "type", "object", "createdAt", NULL::BIGINT[]
            FROM "LogEntry" WHERE "rev" > p_after AND "rev" <= v_start ORDER BY "rev";
    END IF;
    FOR i IN 1 .. coalesce(array_length(p_types, 1), 0) LOOP
        v_obj := p_heads[i] || (v_rev + 1)::text || p_tails[i];
        IF p_types[i] = 'create' THEN
            INSERT INTO "CurrentObject" ("resource", "namespace", "name", "rev", "object")
                VALUES (p_resources[i], p_namespaces[i], p_names[i], v_rev + 1, v_obj) ON CONFLICT DO NOTHING;
            IF NOT FOUND THEN v_out := v_out || (-1)::bigint; CONTINUE; END IF;
            l_type := l_type || 'ADDED'::text;
        ELSE
            -- An update or a delete holds only while the stored row is at the expected revision.
            IF p_types[i] = 'update' THEN
                UPDATE "CurrentObject" SET "rev" = v_rev + 1, "object" = v_obj
                    WHERE "resource" = p_resources[i] AND "namespace" = p_namespaces[i] AND "name" = p_names[i] AND "rev" = p_expect[i];
            ELSE
                DELETE FROM "CurrentObject"
                    WHERE "resource" = p_resources[i] AND "namespace" = p_namespaces[i] AND "name" = p_names[i] AND "rev" = p_expect[i];
            END IF;
            IF NOT FOUND THEN
                v_out := v_out || (CASE WHEN EXISTS (SELECT 1 FROM "CurrentObject" WHERE "resource" = p_resources[i]
                    AND "namespace" = p_namespaces[i] AND "name" = p_names[i]) THEN -3 ELSE -2 END)::bigint;
                CONTINUE;
            END IF;
            l_type := l_type || (CASE WHEN p_types[i] = 'update' THEN 'MODIFIED' ELSE 'DELETED' END)::text;
        END IF;
        v_rev := v_rev + 1;
        v_out := v_out || v_rev;
        l_rev := l_rev || v_rev;
        l_idx := l_idx || i;
        l_obj := l_obj || v_obj;
    END LOOP;
    IF v_rev > v_start THEN
        INSERT INTO "LogEntry" ("rev", "resource", "namespace", "name", "type", "object", "createdAt", "user")
            SELECT l_rev[j], p_resources[l_idx[j]], p_namespaces[l_idx[j]], p_names[l_idx[j]], l_type[j], l_obj[j], p_now, p_users[l_idx[j]]
            FROM generate_subscripts(l_rev, 1) AS j;
        UPDATE "Revision" SET "rev" = v_rev WHERE "id" = 1;
        -- Delivered to every listening replica when (and only if) the transaction commits (notifier.ts).
        PERFORM pg_notify('cluster_core_log', v_rev::text);
    END IF;
    RETURN QUERY SELECT NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT, NULL::TEXT, NULL::TEXT, NULL::BIGINT, v_out;
END
$$

// R-SQL-W (performance.md §8.2): the write-path ceiling with durability. node:https POST handler doing one
// better-sqlite3 INSERT per request, each its own transaction (no group commit), in WAL mode with the same
// synchronous setting as ours (FULL: every commit fsynced). The request is parsed, stamped (uid,
// creationTimestamp, resourceVersion), stored as JSON text in a kine-like table and echoed back with 201;
// a duplicate name answers 409.
import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { JSON_HEADERS, readBody, serve } from "./serve";

const synchronous = process.env.SYNCHRONOUS === "NORMAL" ? "NORMAL" : "FULL";
const db = new Database(process.env.DB_PATH ?? "raw-insert.db");
db.pragma("journal_mode = WAL");
db.pragma(`synchronous = ${synchronous}`);
db.exec(`CREATE TABLE IF NOT EXISTS kv (
  rev INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created INTEGER NOT NULL,
  value TEXT NOT NULL
)`);
const insert = db.prepare("INSERT INTO kv (rev, name, created, value) VALUES (?, ?, ?, ?)");
let rev = Number((db.prepare("SELECT COALESCE(MAX(rev), 0) AS rev FROM kv").get() as { rev: number }).rev);
console.log(`raw-sqlite-insert: journal_mode=${String(db.pragma("journal_mode", { simple: true }))} synchronous=${synchronous}`);

serve("raw-sqlite-insert", (req, res) => {
  if (req.method !== "POST") { res.writeHead(405, JSON_HEADERS); res.end("{}\n"); return; }
  void readBody(req).then((body) => {
    const obj = JSON.parse(body.toString()) as { metadata: Record<string, unknown> };
    const path = (req.url ?? "/").split("?", 1)[0];
    const ns = /^\/api\/v1\/namespaces\/([^/]+)\//.exec(path)?.[1] ?? "default";
    obj.metadata.namespace = ns;
    obj.metadata.uid = randomUUID();
    obj.metadata.creationTimestamp = new Date().toISOString().replace(/\.\d+Z$/, "Z");
    obj.metadata.resourceVersion = String(rev + 1);
    const json = JSON.stringify(obj);
    try {
      insert.run(rev + 1, `/registry/configmaps/${ns}/${String(obj.metadata.name)}`, Date.now(), json);
      rev += 1;
    } catch (err) {
      res.writeHead((err as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE" ? 409 : 500, JSON_HEADERS);
      res.end("{}\n");
      return;
    }
    res.writeHead(201, JSON_HEADERS);
    res.end(`${json}\n`);
  });
});
process.on("exit", () => db.close());

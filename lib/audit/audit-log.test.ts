import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildAuditEvent, type AuditEvent } from "./audit-event";
import { AuditLog, auditLogFromEnv, backupPath, MEGABYTE } from "./audit-log";

let dir: string;
const logs: AuditLog[] = [];
beforeEach(() => { dir = mkdtempSync(path.join(tmpdir(), "audit-")); });
afterEach(async () => {
  await Promise.all(logs.splice(0).map((l) => l.close()));
  rmSync(dir, { recursive: true, force: true });
});

const track = (log: AuditLog | undefined) => { if (log) logs.push(log); return log; };

function event(i: number): AuditEvent {
  return buildAuditEvent({
    auditID: `id-${i}`,
    requestURI: `/api/v1/namespaces/default/configmaps/cm-${i}`,
    verb: "get",
    user: { username: "alice", groups: ["system:authenticated"] },
    sourceIPs: ["127.0.0.1"],
    objectRef: { resource: "configmaps", namespace: "default", name: `cm-${i}`, apiVersion: "v1" },
    code: 200,
    received: new Date(),
    completed: new Date(),
  });
}

const readLines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);
const backupsIn = (d: string) => readdirSync(d).filter((n) => /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/.test(n));

describe("AuditLog", () => {
  it("appends one JSON line per event to a new private file in a new directory", async () => {
    const file = path.join(dir, "nested", "logs", "audit.log");
    const log = track(new AuditLog({ path: file, maxSizeBytes: MEGABYTE, maxBackups: 3, maxAgeDays: 0 }))!;
    for (let i = 0; i < 5; i++) log.write(event(i));
    await log.flush();
    const lines = readLines(file);
    expect(lines.map((l) => JSON.parse(l).auditID)).toEqual(["id-0", "id-1", "id-2", "id-3", "id-4"]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("returns from write before touching the disk (the request never waits for it)", async () => {
    const file = path.join(dir, "audit.log");
    const log = track(new AuditLog({ path: file, maxSizeBytes: MEGABYTE, maxBackups: 3, maxAgeDays: 0 }))!;
    await log.flush(); // the file is opened at construction
    log.write(event(1));
    expect(readFileSync(file, "utf8")).toBe("");
    await log.flush();
    expect(readLines(file)).toHaveLength(1);
  });

  it("appends to an existing log instead of truncating it", async () => {
    const file = path.join(dir, "audit.log");
    writeFileSync(file, '{"old":true}\n');
    const log = track(new AuditLog({ path: file, maxSizeBytes: MEGABYTE, maxBackups: 3, maxAgeDays: 0 }))!;
    log.write(event(1));
    await log.close();
    expect(readLines(file)).toHaveLength(2);
  });

  it("rotates past the size limit into timestamped backups and keeps at most maxBackups", async () => {
    const file = path.join(dir, "audit.log");
    const size = Buffer.byteLength(JSON.stringify(event(0))) + 1;
    const maxSizeBytes = size * 3 + 10; // three lines per file
    const log = track(new AuditLog({ path: file, maxSizeBytes, maxBackups: 2, maxAgeDays: 0 }))!;
    for (let i = 0; i < 10; i++) log.write(event(i));
    await log.flush();
    for (let i = 10; i < 20; i++) log.write(event(i));
    await log.close();

    const backups = backupsIn(dir).sort();
    expect(backups).toHaveLength(2);
    expect(statSync(file).size).toBeLessThanOrEqual(maxSizeBytes);
    for (const name of [...backups, "audit.log"]) {
      const lines = readLines(path.join(dir, name));
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.length).toBeLessThanOrEqual(3);
      for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
      expect(statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);
    }
    // The newest events survive in order: backups (oldest first) then the live file end with id-19.
    const ids = [...backups, "audit.log"].flatMap((n) => readLines(path.join(dir, n)).map((l) => JSON.parse(l).auditID));
    expect(ids.at(-1)).toBe("id-19");
    expect(ids).toEqual([...ids].sort((a, b) => Number(a.slice(3)) - Number(b.slice(3))));
  });

  it("names backups as lumberjack does", () => {
    expect(backupPath("/var/log/audit.log", new Date("2026-11-24T10:11:12.123Z")))
      .toBe("/var/log/audit-2026-11-24T10-11-12.123.log");
    expect(backupPath("/var/log/audit", new Date("2026-11-24T10:11:12.123Z")))
      .toBe("/var/log/audit-2026-11-24T10-11-12.123");
  });

  it("deletes backups older than maxAgeDays and leaves unrelated files alone", async () => {
    const now = new Date("2026-11-24T12:00:00.000Z");
    const old = path.basename(backupPath(path.join(dir, "audit.log"), new Date("2026-11-20T12:00:00.000Z")));
    const recent = path.basename(backupPath(path.join(dir, "audit.log"), new Date("2026-11-24T11:00:00.000Z")));
    for (const n of [old, recent, "audit-notes.log", "other-2026-11-01T00-00-00.000.log"]) writeFileSync(path.join(dir, n), "x\n");
    const log = track(new AuditLog({ path: path.join(dir, "audit.log"), maxSizeBytes: MEGABYTE, maxBackups: 0, maxAgeDays: 2, now: () => now }))!;
    await log.flush();
    expect(readdirSync(dir).sort()).toEqual(["audit-notes.log", recent, "audit.log", "other-2026-11-01T00-00-00.000.log"].sort());
  });

  it("reports an unwritable path once on stderr and never throws into the caller", async () => {
    writeFileSync(path.join(dir, "blocker"), "");
    const report = vi.fn();
    const log = track(new AuditLog({ path: path.join(dir, "blocker", "audit.log"), maxSizeBytes: MEGABYTE, maxBackups: 1, maxAgeDays: 0, report }))!;
    for (let i = 0; i < 5; i++) {
      expect(() => log.write(event(i))).not.toThrow();
      await log.flush();
    }
    await expect(log.close()).resolves.toBeUndefined();
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0][0]).toMatch(/^audit log: cannot write .*blocker.*audit\.log: /);
  });

  it("writes to standard output for path '-'", async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation(((chunk: string, cb?: (err?: Error) => void) => {
      written.push(String(chunk));
      cb?.();
      return true;
    }) as typeof process.stdout.write);
    try {
      const log = track(new AuditLog({ path: "-", maxSizeBytes: 1, maxBackups: 1, maxAgeDays: 0 }))!;
      log.write(event(7));
      await log.close();
    } finally {
      spy.mockRestore();
    }
    expect(written.join("")).toContain('"auditID":"id-7"');
    expect(readdirSync(dir)).toEqual([]);
  });

  it("ignores events after close", async () => {
    const file = path.join(dir, "audit.log");
    const log = track(new AuditLog({ path: file, maxSizeBytes: MEGABYTE, maxBackups: 1, maxAgeDays: 0 }))!;
    log.write(event(1));
    await log.close();
    log.write(event(2));
    await log.close();
    expect(readLines(file).map((l) => JSON.parse(l).auditID)).toEqual(["id-1"]);
  });
});

describe("auditLogFromEnv", () => {
  it("returns no log when AUDIT_LOG_PATH is unset or blank", () => {
    expect(auditLogFromEnv({})).toBeUndefined();
    expect(auditLogFromEnv({ AUDIT_LOG_PATH: "  ", AUDIT_LOG_MAXSIZE: "5" })).toBeUndefined();
  });

  it("applies kube's defaults and the given settings", async () => {
    const file = path.join(dir, "audit.log");
    const defaults = track(auditLogFromEnv({ AUDIT_LOG_PATH: file }))!;
    expect(defaults.settings).toEqual({ path: file, maxSizeBytes: 100 * MEGABYTE, maxBackups: 10, maxAgeDays: 0 });
    const custom = track(auditLogFromEnv({ AUDIT_LOG_PATH: file, AUDIT_LOG_MAXSIZE: "5", AUDIT_LOG_MAXBACKUP: "0", AUDIT_LOG_MAXAGE: "30" }))!;
    expect(custom.settings).toEqual({ path: file, maxSizeBytes: 5 * MEGABYTE, maxBackups: 0, maxAgeDays: 30 });
    expect(track(auditLogFromEnv({ AUDIT_LOG_PATH: "-" }))!.settings.path).toBe("-");
  });

  it("throws an error naming the variable for a value that is not a whole number", () => {
    expect(() => auditLogFromEnv({ AUDIT_LOG_PATH: "x.log", AUDIT_LOG_MAXSIZE: "10MB" })).toThrow(/AUDIT_LOG_MAXSIZE/);
    expect(() => auditLogFromEnv({ AUDIT_LOG_PATH: "x.log", AUDIT_LOG_MAXBACKUP: "-1" })).toThrow(/AUDIT_LOG_MAXBACKUP/);
    expect(() => auditLogFromEnv({ AUDIT_LOG_PATH: "x.log", AUDIT_LOG_MAXAGE: "1.5" })).toThrow(/AUDIT_LOG_MAXAGE/);
  });
});

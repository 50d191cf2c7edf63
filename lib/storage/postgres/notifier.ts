// PostgreSQL LISTEN for the revision log: every write transaction runs `NOTIFY cluster_core_log, '<rev>'`
// (every batch strategy of postgres/), which PostgreSQL delivers to every listening connection when, and only
// if, the transaction commits. A replica's tailer is woken by it instead of waiting for its next poll; polling
// stays as the fallback (a dropped connection, a notification lost while reconnecting). One dedicated
// connection per process, outside Prisma's pool (a pooled connection cannot hold a LISTEN).
import pg from "pg";

/** Every write transaction notifies this channel with its last revision. */
export const LOG_CHANNEL = "cluster_core_log";

export class LogNotifier {
  private client: pg.Client | null = null;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;
  /** True while the LISTEN connection is up: polling may then be slow. */
  connected = false;
  /** Notifications received (metrics). */
  received = 0;

  constructor(
    private readonly url: string,
    /** Called with the notified revision; and with 0 right after each (re)connect, to catch up. */
    private readonly onRevision: (rev: number) => void,
    private readonly retryMs = 1000,
  ) {}

  /** Connects and listens; resolves once listening, or after the first failure (then retries in the background). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      this.connected = false;
      client.removeAllListeners("notification");
      client.end().catch(() => { /* already gone */ });
      this.scheduleRetry();
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (msg) => {
      if (msg.channel !== LOG_CHANNEL) return;
      this.received++;
      this.onRevision(Number(msg.payload) || 0);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${LOG_CHANNEL}`);
      if (this.closed) { await client.end().catch(() => {}); return; }
      this.connected = true;
      // Writes committed before LISTEN took effect were not notified: read the log once now.
      this.onRevision(0);
    } catch {
      lost();
    }
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connected = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const c = this.client;
    this.client = null;
    if (c) {
      c.removeAllListeners("notification");
      await c.end().catch(() => { /* already gone */ });
    }
  }
}

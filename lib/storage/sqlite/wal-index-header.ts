// The wal-index header of a SQLite database in WAL mode, read from its `-shm` file: every commit, by any
// connection of any process, rewrites it (its `iChange` counter moves at each one), and a checkpoint leaves it
// alone. The header is the first 96 bytes of the file (two copies of the 48-byte WalIndexHdr, the second
// written first; https://www.sqlite.org/walformat.html). One pread, no lock and no transaction: unchanged
// means nobody committed since the last read. Undefined when the file cannot be read (the caller then asks
// SQLite itself).
import { closeSync, openSync, readSync } from "node:fs";

const HEADER_BYTES = 96;

export class WalIndexHeader {
  private readonly fd: number | undefined;
  private readonly now = Buffer.alloc(HEADER_BYTES);

  constructor(databaseFile: string) {
    let fd: number | undefined;
    try {
      fd = openSync(`${databaseFile}-shm`, "r");
    } catch {
      fd = undefined;
    }
    this.fd = fd;
  }

  /**
   * Whether the header still equals `last` (filled with the header read now when it does not, or when `last`
   * is empty); undefined when it cannot be read.
   */
  unchanged(last: Buffer): boolean | undefined {
    if (this.fd === undefined) return undefined;
    let n: number;
    try {
      n = readSync(this.fd, this.now, 0, HEADER_BYTES, 0);
    } catch {
      return undefined;
    }
    if (n !== HEADER_BYTES) return undefined;
    if (last.length === HEADER_BYTES && this.now.equals(last)) return true;
    return false;
  }

  /** The header read by the last `unchanged` call. */
  copyInto(last: Buffer): void {
    this.now.copy(last);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
  }
}

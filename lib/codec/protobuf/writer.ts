// Protocol-buffers wire format, writing side: varints (negative integers as Go's 64-bit two's complement), keys,
// length-delimited strings and bytes, doubles, and nested messages. One growable buffer per encoding: a nested
// message reserves one length byte and moves its content along in the rare case its length needs more. Knows
// no schema: encode.ts writes Kubernetes types with it, lib/openapi/gnostic.ts the OpenAPI v2 document.

const TWO_32 = 4294967296;

/** Bytes a varint of the non-negative integer `n` (< 2^53) takes. */
export function varintSize(n: number): number {
  if (n < 0x80) return 1;
  if (n < 0x4000) return 2;
  if (n < 0x200000) return 3;
  if (n < 0x10000000) return 4;
  let size = 4;
  n = Math.floor(n / 0x10000000);
  while (n > 0) { size++; n = Math.floor(n / 0x80); }
  return size;
}

/** Write a varint of the non-negative integer `n` (< 2^53) at `pos`; returns the position after it. */
export function putVarint(buf: Uint8Array, pos: number, n: number): number {
  while (n > 0x7fffffff) {
    buf[pos++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  while (n > 0x7f) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[pos++] = n;
  return pos;
}

export class Writer {
  buf: Buffer;
  pos = 0;

  constructor(size = 8192) {
    this.buf = Buffer.allocUnsafe(size);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A copy of what was written. */
  finish(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    return out;
  }

  /** An integer as Go writes int32/int64/uint64: negative values as 64-bit two's complement (10 bytes). */
  varint(v: number): void {
    this.ensure(10);
    const buf = this.buf;
    if (v >= 0 && v <= 0x7fffffff) {
      let n = v | 0;
      while (n > 0x7f) { buf[this.pos++] = (n & 0x7f) | 0x80; n >>>= 7; }
      buf[this.pos++] = n;
      return;
    }
    if (!Number.isFinite(v)) v = 0;
    v = Math.trunc(v);
    let lo: number, hi: number;
    if (Math.abs(v) < 2 ** 53) {
      hi = Math.floor(v / TWO_32);
      lo = v - hi * TWO_32;
      hi >>>= 0;
    } else {
      const x = BigInt.asUintN(64, BigInt(v));
      lo = Number(x & 0xffffffffn);
      hi = Number(x >> 32n);
    }
    while (hi > 0 || lo > 0x7f) {
      buf[this.pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    buf[this.pos++] = lo;
  }

  key(no: number, wire: number): void {
    const k = (no << 3) | wire;
    if (k < 0x80) {
      this.ensure(1);
      this.buf[this.pos++] = k;
    } else {
      this.varint(k);
    }
  }

  /** A length-delimited UTF-8 string (its key already written). */
  stringValue(s: string): void {
    const n = s.length;
    if (n < 43) { // at most 126 bytes: the length takes one byte
      this.ensure(1 + 3 * n);
      const buf = this.buf;
      const start = this.pos + 1;
      let p = start;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) {
          p = start + buf.write(s, start, "utf8");
          break;
        }
        buf[p++] = c;
      }
      buf[this.pos] = p - start;
      this.pos = p;
      return;
    }
    const len = Buffer.byteLength(s, "utf8");
    this.varint(len);
    this.ensure(len);
    this.buf.write(s, this.pos, len, "utf8");
    this.pos += len;
  }

  string(no: number, s: string): void {
    this.key(no, 2);
    this.stringValue(s);
  }

  bytes(no: number, b: Uint8Array): void {
    this.key(no, 2);
    this.varint(b.length);
    this.raw(b);
  }

  raw(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  int(no: number, v: number): void {
    this.key(no, 0);
    this.varint(v);
  }

  /** A double: fixed 64 bits, little-endian. */
  double(no: number, v: number): void {
    this.key(no, 1);
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  /** Start a nested message (its key already written): reserve its length byte. */
  fork(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** End the nested message started at `at`: write its length, moving the content if it needs more bytes. */
  join(at: number): void {
    const len = this.pos - at - 1;
    if (len < 0x80) {
      this.buf[at] = len;
      return;
    }
    const extra = varintSize(len) - 1;
    this.ensure(extra);
    this.buf.copyWithin(at + 1 + extra, at + 1, this.pos);
    this.pos += extra;
    putVarint(this.buf, at, len);
  }
}

// Protocol-buffers wire format, reading side: varints, fixed 32/64-bit words, length-delimited bytes, and
// skipping unknown fields (including deprecated groups). Every read is bounds-checked; errors carry the
// texts gogo-protobuf's generated Unmarshal code uses ("unexpected EOF", "proto: integer overflow", ...).

export class WireError extends Error {}

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

export const unexpectedEOF = () => new WireError("unexpected EOF");
const overflow = () => new WireError("proto: integer overflow");
const negativeLength = () => new WireError("proto: negative length found during unmarshaling");

/** A 64-bit varint as two unsigned 32-bit halves. */
export interface Varint64 { lo: number; hi: number }

export class Reader {
  pos: number;
  constructor(readonly buf: Uint8Array, start = 0, readonly end = buf.length) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** Raw varint (up to 10 bytes; bits past 64 are dropped, as Go does). */
  varint64(): Varint64 {
    let lo = 0;
    let hi = 0;
    for (let shift = 0; ; shift += 7) {
      if (shift >= 64) throw overflow();
      if (this.pos >= this.end) throw unexpectedEOF();
      const b = this.buf[this.pos++];
      const bits = b & 0x7f;
      if (shift < 28) lo |= bits << shift;
      else if (shift === 28) { lo |= (bits & 0x0f) << 28; hi |= bits >>> 4; }
      else hi |= bits << (shift - 32);
      if (b < 0x80) break;
    }
    return { lo: lo >>> 0, hi: hi >>> 0 };
  }

  /** Low 32 bits, signed (Go `int32(v)`). */
  int32(): number {
    return this.varint64().lo | 0;
  }

  /** Signed 64-bit value as a JS number (exact up to 2^53, like JSON.parse of the same digits). */
  int64(): number {
    const { lo, hi } = this.varint64();
    return (hi | 0) * 4294967296 + lo;
  }

  bool(): boolean {
    const { lo, hi } = this.varint64();
    return (lo | hi) !== 0;
  }

  /** A length prefix as Go reads it into an `int`: negative lengths and overruns are errors. */
  length(): number {
    const { lo, hi } = this.varint64();
    if (hi & 0x80000000) throw negativeLength();
    const n = hi * 4294967296 + lo;
    if (this.pos + n > this.end) throw unexpectedEOF();
    return n;
  }

  /** Length-delimited payload: [start, end) offsets into buf. */
  delimited(): [number, number] {
    const n = this.length();
    const start = this.pos;
    this.pos += n;
    return [start, this.pos];
  }

  bytes(): Uint8Array {
    const [s, e] = this.delimited();
    return this.buf.subarray(s, e);
  }

  string(): string {
    const [s, e] = this.delimited();
    return Buffer.from(this.buf.buffer, this.buf.byteOffset + s, e - s).toString("utf8");
  }

  /** Field key: (number, wire type). `message` names the type in gogo's error texts. */
  key(message: string): { no: number; wire: number } {
    const { lo, hi } = this.varint64();
    const wire = lo & 7;
    const no = ((lo >>> 3) | (hi << 29)) | 0; // Go: int32(wire >> 3)
    if (wire === WIRE_END_GROUP) throw new WireError(`proto: ${message}: wiretype end group for non-group`);
    if (no <= 0) throw new WireError(`proto: ${message}: illegal tag ${no} (wire type ${wire})`);
    return { no, wire };
  }

  /** Skip one field's value of the given wire type (its key already read). */
  skip(wire: number): void {
    let depth = 0;
    for (;;) {
      switch (wire) {
        case WIRE_VARINT: this.varint64(); break;
        case WIRE_FIXED64: this.advance(8); break;
        case WIRE_BYTES: this.delimited(); break;
        case WIRE_START_GROUP: depth++; break; // iterative: nesting costs a counter, not stack
        case WIRE_END_GROUP:
          if (depth === 0) throw new WireError("proto: unexpected end of group");
          depth--;
          break;
        case WIRE_FIXED32: this.advance(4); break;
        default: throw new WireError(`proto: illegal wireType ${wire}`);
      }
      if (depth === 0) return;
      // Inside a group: read the next key and keep skipping until its end-group.
      wire = this.varint64().lo & 7;
    }
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw unexpectedEOF();
    this.pos += n;
  }
}

/**
 * Splits a byte stream into lines while holding at most `maxLineBytes` of one line: a longer line
 * is not buffered but reported once it ends, as its first `headBytes` and last bytes plus its size.
 * Works on bytes, so the bound is real memory and a multi-byte character is never split (0x0A
 * never occurs inside a UTF-8 sequence).
 */
export interface OversizedLine {
  /** The first bytes of the line (at most `headBytes`), decoded. */
  readonly head: string;
  /** The last bytes of the line (at most 256), decoded; enough to find a trailing `"id"`. */
  readonly tail: string;
  readonly bytes: number;
}

export interface LineSplitterOptions {
  readonly maxLineBytes: number;
  /** How much of an oversized line to keep for {@link OversizedLine.head} (default 256). */
  readonly headBytes?: number;
  readonly onLine: (line: string) => void;
  readonly onOversized: (line: OversizedLine) => void;
}

const TAIL_BYTES = 256;

export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private oversized?: { head: Buffer; tail: Buffer; bytes: number };

  constructor(private readonly options: LineSplitterOptions) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      this.append(chunk.subarray(start, nl < 0 ? chunk.length : nl));
      if (nl < 0) return;
      this.flush();
      start = nl + 1;
    }
  }

  /** The stream ended: a last line without a newline is still a line. */
  end(): void {
    if (this.size || this.oversized) this.flush();
  }

  private append(b: Buffer): void {
    if (!b.length) return;
    const o = this.oversized;
    if (o) {
      o.bytes += b.length;
      o.tail = b.length >= TAIL_BYTES ? Buffer.from(b.subarray(b.length - TAIL_BYTES)) : Buffer.concat([o.tail, b]).subarray(-TAIL_BYTES);
      return;
    }
    if (this.size + b.length <= this.options.maxLineBytes) {
      this.parts.push(b);
      this.size += b.length;
      return;
    }
    const all = Buffer.concat([...this.parts, b]);
    const headBytes = Math.min(this.options.headBytes ?? TAIL_BYTES, this.options.maxLineBytes);
    this.oversized = { head: Buffer.from(all.subarray(0, headBytes)), tail: Buffer.from(all.subarray(-TAIL_BYTES)), bytes: all.length };
    this.parts = [];
    this.size = 0;
  }

  private flush(): void {
    const o = this.oversized;
    if (o) {
      this.oversized = undefined;
      this.options.onOversized({ head: decodeHead(o.head), tail: decodeTail(o.tail), bytes: o.bytes });
      return;
    }
    const buf = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    const end = buf.length && buf[buf.length - 1] === 13 ? buf.length - 1 : buf.length;
    this.options.onLine(buf.toString('utf8', 0, end));
  }
}

function decodeHead(b: Buffer): string {
  // Drop a last character whose continuation bytes were cut off.
  let i = b.length - 1;
  while (i >= 0 && (b[i] & 0xc0) === 0x80) i--;
  if (i < 0) return '';
  const lead = b[i];
  const need = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return b.toString('utf8', 0, b.length - i >= need ? b.length : i);
}

function decodeTail(b: Buffer): string {
  let start = 0;
  while (start < b.length && (b[start] & 0xc0) === 0x80) start++;
  return b.toString('utf8', start);
}

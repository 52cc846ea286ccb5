// A minimal tar (POSIX ustar, with pax records for long paths and sizes >= 8 GiB): enough to write
// a snapshot archive any `tar` can list and extract, and to read one back as a stream. The reader
// checks every header's checksum and reports entry types; it never touches the file system.

const BLOCK = 512;
const MAX_OCTAL_SIZE = 0o77777777777; // 11 octal digits

export type TarEntryType = 'file' | 'dir' | 'symlink' | 'hardlink' | 'other';

export interface TarEntry {
  /** As stored, without a trailing slash. */
  path: string;
  type: TarEntryType;
  /** The raw typeflag ('0', '5', '2', …). */
  typeflag: string;
  size: number;
  mode: number;
}

export class TarFormatError extends Error {
  override readonly name = 'TarFormatError';
}

function writeString(buf: Buffer, offset: number, length: number, value: string): void {
  Buffer.from(value, 'utf8').copy(buf, offset, 0, length);
}

function writeOctal(buf: Buffer, offset: number, length: number, value: number): void {
  buf.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii');
}

function rawHeader(name: string, typeflag: string, size: number, mode: number, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  writeString(h, 0, 100, name);
  writeOctal(h, 100, 8, mode);
  writeOctal(h, 108, 8, 0); // uid
  writeOctal(h, 116, 8, 0); // gid
  writeOctal(h, 124, 12, size);
  writeOctal(h, 136, 12, mtime);
  h.write(typeflag, 156, 1, 'ascii');
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return h;
}

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyLen = Buffer.byteLength(body);
  let n = bodyLen;
  for (;;) {
    const total = bodyLen + String(n).length;
    if (total === n) return `${n}${body}`;
    n = total;
  }
}

/** Zero bytes that pad `size` bytes of content to a whole block. */
export function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** Two zero blocks. */
export const END_OF_ARCHIVE: Buffer = Buffer.alloc(2 * BLOCK);

/** The header block(s) of a file or folder entry; a pax header comes first when the path or size needs one. */
export function tarHeader(entry: { path: string; type: 'file' | 'dir'; size: number; mode: number; mtime: number }): Buffer {
  const name = entry.type === 'dir' ? `${entry.path.replace(/\/+$/, '')}/` : entry.path;
  const size = entry.type === 'dir' ? 0 : entry.size;
  const records: string[] = [];
  if (Buffer.byteLength(name) > 100 || /[^\x20-\x7e]/.test(name)) records.push(paxRecord('path', name));
  if (size > MAX_OCTAL_SIZE) records.push(paxRecord('size', String(size)));
  const header = rawHeader(name, entry.type === 'dir' ? '5' : '0', size > MAX_OCTAL_SIZE ? 0 : size, entry.mode & 0o7777, entry.mtime);
  if (!records.length) return header;
  const pax = Buffer.from(records.join(''), 'utf8');
  return Buffer.concat([rawHeader('PaxHeader', 'x', pax.length, 0o644, entry.mtime), pax, padding(pax.length), header]);
}

function cString(buf: Buffer, start: number, end: number): string {
  const nul = buf.indexOf(0, start);
  return buf.toString('utf8', start, nul === -1 || nul > end ? end : nul);
}

function parseNumber(buf: Buffer, start: number, end: number, what: string, at: number): number {
  if ((buf[start] ?? 0) & 0x80) {
    // GNU base-256
    let v = (buf[start] ?? 0) & 0x7f;
    for (let i = start + 1; i < end; i++) v = v * 256 + (buf[i] ?? 0);
    return v;
  }
  const s = cString(buf, start, end).trim();
  if (s === '') return 0;
  if (!/^[0-7]+$/.test(s)) throw new TarFormatError(`bad ${what} field ${JSON.stringify(s)} in the header at byte ${at}`);
  return parseInt(s, 8);
}

function parsePax(body: Buffer, at: number): Record<string, string> {
  const out: Record<string, string> = {};
  let pos = 0;
  while (pos < body.length) {
    const space = body.indexOf(0x20, pos);
    const len = space === -1 ? NaN : Number(body.toString('ascii', pos, space));
    if (!Number.isSafeInteger(len) || len <= 0 || pos + len > body.length) throw new TarFormatError(`bad pax record in the header at byte ${at}`);
    const rec = body.toString('utf8', space + 1, pos + len - 1);
    const eq = rec.indexOf('=');
    if (eq > 0) out[rec.slice(0, eq)] = rec.slice(eq + 1);
    pos += len;
  }
  return out;
}

const MAX_META = 1 << 20;

/** Reads entries one after the other from a stream of (already decompressed) tar bytes. */
export class TarReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private buf: Buffer = Buffer.alloc(0);
  private bodyLeft = 0;
  private padLeft = 0;
  /** Bytes consumed so far. */
  offset = 0;

  constructor(source: AsyncIterable<Buffer>) {
    this.chunks = source[Symbol.asyncIterator]();
  }

  private async pull(): Promise<boolean> {
    const r = await this.chunks.next();
    if (r.done) return false;
    this.buf = this.buf.length ? Buffer.concat([this.buf, r.value]) : r.value;
    return true;
  }

  private async take(n: number): Promise<Buffer> {
    while (this.buf.length < n) if (!(await this.pull())) throw new TarFormatError(`the archive ends early (at byte ${this.offset + this.buf.length})`);
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    this.offset += n;
    return out;
  }

  /** The content of the current entry, in chunks; must be read fully or not at all (next() skips the rest). */
  async *body(): AsyncGenerator<Buffer> {
    while (this.bodyLeft > 0) {
      if (!this.buf.length && !(await this.pull())) throw new TarFormatError(`the archive ends early (at byte ${this.offset})`);
      const n = Math.min(this.buf.length, this.bodyLeft);
      const out = this.buf.subarray(0, n);
      this.buf = this.buf.subarray(n);
      this.offset += n;
      this.bodyLeft -= n;
      yield out;
    }
    if (this.padLeft) {
      await this.take(this.padLeft);
      this.padLeft = 0;
    }
  }

  private async readBody(limit: number, at: number): Promise<Buffer> {
    if (this.bodyLeft > limit) throw new TarFormatError(`oversized metadata entry at byte ${at}`);
    const parts: Buffer[] = [];
    for await (const c of this.body()) parts.push(c);
    return Buffer.concat(parts);
  }

  /** The next entry, or null at the end of the archive. */
  async next(): Promise<TarEntry | null> {
    for await (const _ of this.body()); // skip what the caller did not read
    let pax: Record<string, string> = {};
    let longName: string | undefined;
    for (;;) {
      while (this.buf.length < BLOCK) {
        if (!(await this.pull())) {
          if (this.buf.length === 0) return null; // no end-of-archive blocks: tolerated, as tar does
          throw new TarFormatError(`the archive ends early (at byte ${this.offset + this.buf.length})`);
        }
      }
      const at = this.offset;
      const h = await this.take(BLOCK);
      if (h.every((b) => b === 0)) return null;
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (h[i] as number);
      const stored = parseNumber(h, 148, 156, 'checksum', at);
      if (stored !== sum) throw new TarFormatError(`bad header checksum at byte ${at} (not a tar archive, or damaged)`);
      const typeflag = h[156] === 0 ? '0' : String.fromCharCode(h[156] as number);
      const size = parseNumber(h, 124, 136, 'size', at);
      this.bodyLeft = size;
      this.padLeft = (BLOCK - (size % BLOCK)) % BLOCK;
      if (typeflag === 'x') {
        pax = { ...pax, ...parsePax(await this.readBody(MAX_META, at), at) };
        continue;
      }
      if (typeflag === 'g') {
        await this.readBody(MAX_META, at);
        continue;
      }
      if (typeflag === 'L') {
        longName = cString(await this.readBody(MAX_META, at), 0, MAX_META);
        continue;
      }
      const ustar = h.toString('ascii', 257, 262) === 'ustar';
      const prefix = ustar ? cString(h, 345, 500) : '';
      const name = pax.path ?? longName ?? (prefix ? `${prefix}/${cString(h, 0, 100)}` : cString(h, 0, 100));
      let realSize = size;
      if (pax.size !== undefined) {
        realSize = Number(pax.size);
        if (!Number.isSafeInteger(realSize) || realSize < 0) throw new TarFormatError(`bad pax size at byte ${at}`);
      }
      const type: TarEntryType =
        typeflag === '0' || typeflag === '7' ? 'file' : typeflag === '5' ? 'dir' : typeflag === '2' ? 'symlink' : typeflag === '1' ? 'hardlink' : 'other';
      // Only regular files carry content; anything else has none whatever its size field says.
      this.bodyLeft = type === 'file' ? realSize : 0;
      this.padLeft = type === 'file' ? (BLOCK - (realSize % BLOCK)) % BLOCK : 0;
      return { path: name.replace(/\/+$/, ''), type, typeflag, size: type === 'file' ? realSize : 0, mode: parseNumber(h, 100, 108, 'mode', at) };
    }
  }
}

// The height of a real daemon's chain, read from its LMDB file (`<data-dir>/…/lmdb/data.mdb`)
// without the daemon: the number of entries of its `blocks` table, which is what the daemon answers
// as its height (BlockchainLMDB::height). A cached or imported chain state is checked against it.
//
// LMDB's layout (liblmdb mdb.c, 64-bit): pages 0 and 1 are meta pages, the newer (higher txnid) is
// current; the main database's root page leads, through branch pages, to leaf nodes whose keys are
// the names of the named databases and whose data are their MDB_db records (48 bytes, md_entries at
// byte 32). Every read is bounds-checked: a damaged or crafted file gives a problem, never a hang.
import { open, type FileHandle } from 'node:fs/promises';

const PAGE_HEADER = 16;
const META_MAGIC = 0xbeefc0de;
const P_BRANCH = 0x01;
const P_LEAF = 0x02;
const F_BIGDATA = 0x01;
const DB_RECORD = 48;
const MAX_DEPTH = 32;

class LmdbError extends Error {}

interface Meta {
  psize: number;
  txnid: bigint;
  root: bigint;
  depth: number;
}

async function readAt(fh: FileHandle, offset: number, length: number, size: number): Promise<Buffer> {
  if (offset < 0 || offset + length > size) throw new LmdbError(`it is cut short (no bytes at ${offset})`);
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, offset);
  if (bytesRead !== length) throw new LmdbError(`it is cut short (no bytes at ${offset})`);
  return buf;
}

/** A meta page: magic, the page size (kept in the free database's md_pad), the main database's root and txnid. */
function parseMeta(page: Buffer): Meta | undefined {
  const m = PAGE_HEADER;
  if (page.readUInt32LE(m) !== META_MAGIC) return undefined;
  const main = m + 8 + 8 + 8 + DB_RECORD; // magic+version, address, mapsize, the free database
  return {
    psize: page.readUInt32LE(m + 24),
    depth: page.readUInt16LE(main + 6),
    root: page.readBigUInt64LE(main + 40),
    txnid: page.readBigUInt64LE(main + DB_RECORD + 8),
  };
}

/** Every leaf node (name → data) of the main database, walked from its root. */
async function mainEntries(fh: FileHandle, meta: Meta, size: number): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const seen = new Set<bigint>();
  const visit = async (pgno: bigint, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || seen.has(pgno)) throw new LmdbError('its tree of databases loops or is too deep');
    seen.add(pgno);
    const offset = Number(pgno) * meta.psize;
    if (!Number.isSafeInteger(offset)) throw new LmdbError(`page ${pgno} lies beyond the file`);
    const page = await readAt(fh, offset, meta.psize, size);
    const flags = page.readUInt16LE(10);
    const lower = page.readUInt16LE(12);
    if (lower < PAGE_HEADER || lower > meta.psize) throw new LmdbError(`page ${pgno} is damaged`);
    for (let i = 0; i < (lower - PAGE_HEADER) >> 1; i++) {
      const at = page.readUInt16LE(PAGE_HEADER + 2 * i);
      if (at + 8 > meta.psize) throw new LmdbError(`page ${pgno} is damaged`);
      const lo = page.readUInt16LE(at);
      const hi = page.readUInt16LE(at + 2);
      const nflags = page.readUInt16LE(at + 4);
      const ksize = page.readUInt16LE(at + 6);
      if (flags & P_BRANCH) {
        await visit(BigInt(lo) + (BigInt(hi) << 16n) + (BigInt(nflags) << 32n), depth + 1);
        continue;
      }
      if (!(flags & P_LEAF)) throw new LmdbError(`page ${pgno} is neither a branch nor a leaf`);
      const dsize = lo + hi * 65536;
      if (at + 8 + ksize + dsize > meta.psize || nflags & F_BIGDATA) continue; // not a database record
      out.set(page.toString('latin1', at + 8, at + 8 + ksize), page.subarray(at + 8 + ksize, at + 8 + ksize + dsize));
    }
  };
  await visit(meta.root, 0);
  return out;
}

/**
 * The number of entries of the named database `name` (default `blocks`: the chain's height) in an LMDB data file.
 * Throws an Error saying what is wrong with the file when it cannot be read as LMDB.
 */
export async function lmdbEntries(file: string, name = 'blocks'): Promise<number> {
  const fh = await open(file, 'r');
  try {
    const size = (await fh.stat()).size;
    const first = parseMeta(await readAt(fh, 0, 4096, size));
    if (!first) throw new LmdbError('it is not an LMDB file (no meta page)');
    if (first.psize < 512 || first.psize > 1 << 20 || first.psize & (first.psize - 1))
      throw new LmdbError(`its page size ${first.psize} is not one LMDB uses`);
    const second = parseMeta(await readAt(fh, first.psize, first.psize, size));
    const meta = second && second.txnid > first.txnid ? second : first;
    const record = (await mainEntries(fh, meta, size)).get(name);
    if (!record || record.length !== DB_RECORD) throw new LmdbError(`it has no database "${name}"`);
    const entries = record.readBigUInt64LE(32);
    if (entries > BigInt(Number.MAX_SAFE_INTEGER)) throw new LmdbError(`its "${name}" count is damaged`);
    return Number(entries);
  } catch (e) {
    if (e instanceof LmdbError) throw new Error(`${file}: ${e.message}`, { cause: e });
    throw e;
  } finally {
    await fh.close();
  }
}

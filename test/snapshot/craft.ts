// Hand-made chain-state archives for the crafted-archive cases: a chain (the simulator's blocks file,
// or an LMDB data file with a `blocks` table) of any height, a manifest that may say anything about
// it, and a tar.gz with any entries in any order, links and bombs included.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Header, type HeaderData } from 'tar';
import { cacheKey } from '../../harness/snapshot/key.js';
import type { Manifest, ManifestFile } from '../../harness/snapshot/manifest.js';
import { chainKeyOf } from '../../harness/testnet/chain/chain-cache.js';

export const SIM_CHAIN = 'daemon/testnet/19/lmdb/sim-blocks.jsonl';
export const LMDB_CHAIN = 'daemon/testnet/19/lmdb/data.mdb';
const SHA = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** The simulator's blocks file of a chain of `height` blocks (the genesis block is not stored). */
export function simBlocks(height: number): Buffer {
  let text = '';
  for (let i = 1; i < height; i++) text += `{"index":${i},"hash":"${SHA(Buffer.from(String(i)))}"}\n`;
  return Buffer.from(text);
}

/**
 * A small LMDB data file as liblmdb lays it out: two meta pages (the first current) and one leaf page of the main
 * database holding the named databases' records, `blocks` with `height` entries among them.
 */
export function lmdbFile(height: number, tables: Record<string, number> = { block_info: height }): Buffer {
  const psize = 4096;
  const buf = Buffer.alloc(psize * 3);
  const meta = (page: number, txnid: number): void => {
    const o = page * psize;
    buf.writeBigUInt64LE(BigInt(page), o);
    buf.writeUInt16LE(0x08, o + 10); // P_META
    buf.writeUInt32LE(0xbeefc0de, o + 16);
    buf.writeUInt32LE(1, o + 20);
    buf.writeUInt32LE(psize, o + 40); // the free database's md_pad: the page size
    buf.writeUInt16LE(1, o + 88 + 6); // the main database: depth 1, root page 2
    buf.writeBigUInt64LE(2n, o + 88 + 40);
    buf.writeBigUInt64LE(BigInt(txnid), o + 144);
  };
  meta(0, 2);
  meta(1, 1);
  const leaf = 2 * psize;
  buf.writeBigUInt64LE(2n, leaf);
  buf.writeUInt16LE(0x02, leaf + 10); // P_LEAF
  const names = Object.entries({ ...tables, blocks: height }).sort(([a], [b]) => (a < b ? -1 : 1));
  let upper = psize;
  names.forEach(([name, entries], i) => {
    const node = 8 + name.length + 48;
    upper -= node + (node % 2);
    const at = leaf + upper;
    buf.writeUInt16LE(48, at); // data size
    buf.writeUInt16LE(0x02, at + 4); // F_SUBDATA
    buf.writeUInt16LE(name.length, at + 6);
    buf.write(name, at + 8, 'latin1');
    buf.writeBigUInt64LE(BigInt(entries), at + 8 + name.length + 32);
    buf.writeUInt16LE(upper, leaf + 16 + 2 * i);
  });
  buf.writeUInt16LE(16 + 2 * names.length, leaf + 12);
  buf.writeUInt16LE(upper, leaf + 14);
  return buf;
}

/** A chain state's files: its chain, a pool, and the wallets folder. */
export function chainFiles(backend: 'sim' | 'salvium', height: number, variant = 'A'): Map<string, Buffer> {
  return new Map([
    backend === 'sim' ? [SIM_CHAIN, simBlocks(height)] : [LMDB_CHAIN, lmdbFile(height)],
    ['daemon/testnet/19/lmdb/sim-pool.json', Buffer.from('{"txs":[],"arrival":[]}')],
    ['wallets/main', Buffer.from(`wallet ${variant}`)],
    ['wallets/main.keys', Buffer.from(`keys ${variant}`)],
    ['wallets/.password', Buffer.from(`pw ${variant}`)],
  ]);
}

export const SIM_BINARIES = { simulator: 'c'.repeat(64) };
export const UNLOCKED = '110000000000 SAL1';

/** The manifest of `files`, with its chain key computed as the chain cache computes it (unless `over` says else). */
export function manifestOf(
  files: Map<string, Buffer>,
  o: { backend?: string; height: number; target?: number; key?: string; over?: Partial<Manifest> },
): Manifest {
  const backend = o.backend ?? 'sim';
  const target = o.target ?? o.height;
  const list: ManifestFile[] = [...files].map(([path, b]) => ({ path, size: b.length, sha256: SHA(b), mode: 0o644 }));
  list.sort((a, b) => (a.path < b.path ? -1 : 1));
  const binaries = backend === 'sim' ? SIM_BINARIES : { salviumd: 'd'.repeat(64) };
  const key =
    o.key ?? cacheKey(chainKeyOf({ backend, binaries, prefixDifficulty: 1, height: target, unlocked: UNLOCKED }));
  return {
    formatVersion: 1,
    key,
    createdAt: '2026-01-01T00:00:00.000Z',
    backend,
    binaries,
    difficulty: 1,
    height: o.height,
    wallets: [{ name: 'main', addresses: { cn: 'SaLvTmain' } }],
    files: list,
    extra: { unlocked: UNLOCKED, target },
    ...o.over,
  };
}

/** One entry of a hand-made tar: node-tar encodes the header, the content is padded to a block. */
export function tarEntry(path: string, content: Buffer | string = '', header: HeaderData = {}): Buffer {
  const body = Buffer.from(content);
  const h = new Header({
    path,
    type: 'File',
    size: body.length,
    mode: 0o644,
    uid: 0,
    gid: 0,
    mtime: new Date(0),
    ...header,
  });
  h.encode();
  return Buffer.concat([h.block as Buffer, body, Buffer.alloc((512 - (body.length % 512)) % 512)]);
}

export const END_OF_ARCHIVE = Buffer.alloc(1024);

/** The tar of a manifest and files, as exportSnapshot lays it out (the manifest first); or `entries` for the files. */
export function chainTar(m: Manifest, files: Map<string, Buffer>, entries?: Buffer[]): Buffer {
  const manifest = Buffer.from(`${JSON.stringify(m, null, 2)}\n`);
  const body = entries ?? [...files].map(([p, b]) => tarEntry(`${m.key}/${p}`, b));
  return Buffer.concat([
    tarEntry(`${m.key}/`, '', { type: 'Directory' }),
    tarEntry(`${m.key}/manifest.json`, manifest),
    ...body,
    END_OF_ARCHIVE,
  ]);
}

/**
 * A gzip stream of `prefix` followed by `zeros` zero bytes, made of concatenated gzip members (one per MiB of zeros,
 * each about 1 KiB): 1 GiB of zeros in about 1 MiB, built in a moment.
 */
export function gzipWithZeros(prefix: Buffer, zeros: number): Buffer {
  const mib = gzipSync(Buffer.alloc(1 << 20));
  const parts = [gzipSync(prefix)];
  for (let left = zeros; left > 0; left -= 1 << 20) parts.push(left >= 1 << 20 ? mib : gzipSync(Buffer.alloc(left)));
  return Buffer.concat(parts);
}

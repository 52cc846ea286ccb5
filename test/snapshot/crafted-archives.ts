// Crafted and damaged chain-state archives, as data: each case builds an archive (and, where the case
// needs one, a chain state already in the cache), and says what importing it must do. Refused: with
// the error code and message patterns given (the archive, the field and both values), and the cache
// exactly as it was. Imported: under the key given. test/snapshot/crafted.test.ts runs every case
// through the library's importSnapshot and some through `saltnet snapshot load`; the fault suite
// (test/hostile/) can take the same list.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { SnapshotErrorCode } from '../../harness/snapshot/errors.js';
import type { ImportOptions } from '../../harness/snapshot/import.js';
import type { Manifest } from '../../harness/snapshot/manifest.js';
import {
  chainFiles,
  chainTar,
  END_OF_ARCHIVE,
  gzipWithZeros,
  LMDB_CHAIN,
  lmdbFile,
  manifestOf,
  SIM_CHAIN,
  tarEntry,
} from './craft.js';

export interface CraftedArchive {
  id: string;
  /** Makes the archive in `dir` (and what the cache must hold first, in `cache`); returns the archive's path. */
  build(dir: string, cache: string): string;
  /** Import options the case needs (API only: limits, a measured free space). */
  options?: Pick<ImportOptions, 'maxBytes' | 'maxFileBytes' | 'freeBytes'>;
  outcome: { refused: SnapshotErrorCode; says: RegExp[] } | { imported: string };
}

const GIB = 2 ** 30;

/** A chain state written straight into the cache, as a build or an earlier import leaves it. */
export function seedCache(cache: string, m: Manifest, files: Map<string, Buffer>): void {
  const root = join(cache, 'snapshots', m.key);
  for (const [p, b] of files) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), b);
  }
  writeFileSync(join(root, 'manifest.json'), `${JSON.stringify(m, null, 2)}\n`);
}

function write(dir: string, name: string, bytes: Buffer): string {
  const file = join(dir, `${name}.tar.gz`);
  writeFileSync(file, bytes);
  return file;
}

/** The genuine sim chain state at 1201 and its manifest. */
const genuine = (height = 1201, variant = 'A'): { files: Map<string, Buffer>; m: Manifest } => {
  const files = chainFiles('sim', height, variant);
  return { files, m: manifestOf(files, { height }) };
};

/** An archive of `files` under manifest `m`, with `entries` in place of the files when given. */
const archive =
  (name: string, make: () => { m: Manifest; files: Map<string, Buffer>; entries?: Buffer[] }) =>
  (dir: string): string => {
    const { m, files, entries } = make();
    return write(dir, name, gzipSync(chainTar(m, files, entries)));
  };

const refused = (code: SnapshotErrorCode, ...says: RegExp[]): CraftedArchive['outcome'] => ({ refused: code, says });

const KEY = genuine().m.key;

const claimCases: CraftedArchive[] = [
  {
    id: 'claims an existing key but holds height 7',
    build: (dir, cache) => {
      const g = genuine();
      seedCache(cache, g.m, g.files);
      const files = chainFiles('sim', 7, 'B');
      return archive('height-7', () => ({ files, m: manifestOf(files, { height: 7, key: KEY, target: 1201 }) }))(dir);
    },
    outcome: refused('BAD_ARCHIVE', /height-7\.tar\.gz/, /manifest says height 7, below the height 1201/),
  },
  {
    id: 'claims an existing key, says height 1201, holds height 7',
    build: (dir) => {
      const files = chainFiles('sim', 7, 'B');
      return archive('lies', () => ({ files, m: manifestOf(files, { height: 1201 }) }))(dir);
    },
    outcome: refused('BAD_ARCHIVE', /sim-blocks\.jsonl\) holds height 7, its manifest says height 1201/),
  },
  {
    id: 'another chain state under a cached key',
    build: (dir, cache) => {
      const g = genuine();
      seedCache(cache, g.m, g.files);
      return archive('other', () => genuine(1201, 'B'))(dir);
    },
    outcome: refused(
      'KEY_TAKEN',
      /different snapshot under its key/,
      /wallets\/\.password: sha256 \w+… in the cache, \w+… in the archive/,
    ),
  },
  {
    id: 'the same chain state again',
    build: (dir, cache) => {
      const g = genuine();
      seedCache(cache, g.m, g.files);
      return archive('same', () => g)(dir);
    },
    outcome: { imported: KEY },
  },
  {
    id: 'a key made from other programs',
    build: archive('binaries', () => {
      const g = genuine();
      return { ...g, m: { ...g.m, binaries: { simulator: 'e'.repeat(64) } } };
    }),
    outcome: refused('BAD_ARCHIVE', /is not the key of what its manifest describes/, /binaries/),
  },
  {
    id: 'a key whose height is not the target',
    build: archive('target', () => {
      const g = genuine();
      return { ...g, m: { ...g.m, extra: { ...g.m.extra, target: 1200 } } };
    }),
    outcome: refused('BAD_ARCHIVE', /says height 1201, its manifest says \(extra\.target\) 1200/),
  },
  {
    id: 'a key of another backend',
    build: archive('backend', () => {
      const g = genuine();
      return { ...g, m: { ...g.m, backend: 'salvium' } };
    }),
    outcome: refused('BAD_ARCHIVE', /names backend sim, its manifest says backend salvium/),
  },
  {
    id: 'a chain key without what it was made from',
    build: archive('no-extra', () => {
      const g = genuine();
      const { extra: _e, ...m } = g.m;
      return { ...g, m };
    }),
    outcome: refused('BAD_ARCHIVE', /lacks extra\.target and extra\.unlocked/),
  },
  {
    id: 'a backend saltnet does not know',
    build: archive('unknown', () => {
      const g = genuine();
      return { ...g, m: { ...g.m, backend: 'bitcoin' } };
    }),
    outcome: refused('BAD_ARCHIVE', /backend "bitcoin", which is none of/),
  },
  {
    id: 'a saved state whose chain is lower than its manifest says',
    build: (dir) => {
      const files = chainFiles('sim', 7);
      return archive('saved', () => ({ files, m: manifestOf(files, { height: 10, key: 'saved-sim-x' }) }))(dir);
    },
    outcome: refused('BAD_ARCHIVE', /holds height 7, its manifest says height 10/),
  },
  {
    id: 'a real chain (LMDB) lower than its manifest says',
    build: (dir) => {
      const files = chainFiles('salvium', 1201);
      files.set(LMDB_CHAIN, lmdbFile(7));
      return archive('lmdb', () => ({ files, m: manifestOf(files, { backend: 'salvium', height: 1201 }) }))(dir);
    },
    outcome: refused('BAD_ARCHIVE', /data\.mdb\) holds height 7, its manifest says height 1201/),
  },
  {
    id: 'a real chain that is not LMDB',
    build: (dir) => {
      const files = chainFiles('salvium', 1201);
      files.set(LMDB_CHAIN, Buffer.alloc(8192, 'x'));
      return archive('garbage', () => ({ files, m: manifestOf(files, { backend: 'salvium', height: 1201 }) }))(dir);
    },
    outcome: refused('BAD_ARCHIVE', /data\.mdb cannot be read: it is not an LMDB file/),
  },
  {
    id: 'a genuine real chain state',
    build: (dir) => {
      const files = chainFiles('salvium', 1201);
      return archive('real', () => ({ files, m: manifestOf(files, { backend: 'salvium', height: 1201 }) }))(dir);
    },
    outcome: { imported: manifestOf(chainFiles('salvium', 1201), { backend: 'salvium', height: 1201 }).key },
  },
  { id: 'a genuine chain state', build: archive('genuine', () => genuine()), outcome: { imported: KEY } },
];

/** Entries of the genuine state's files, edited by `edit` (the manifest as it is). */
const withEntries = (name: string, edit: (k: string, files: Map<string, Buffer>) => Buffer[]) =>
  archive(name, () => {
    const g = genuine();
    return { ...g, entries: edit(g.m.key, g.files) };
  });
const entriesOf = (k: string, files: Map<string, Buffer>): Buffer[] =>
  [...files].map(([p, b]) => tarEntry(`${k}/${p}`, b));

const fileCases: CraftedArchive[] = [
  {
    id: 'the file list edited (a sha256)',
    build: archive('sha', () => {
      const g = genuine();
      const files = g.m.files.map((f) => (f.path === 'wallets/main' ? { ...f, sha256: 'f'.repeat(64) } : f));
      return { ...g, m: { ...g.m, files } };
    }),
    outcome: refused('BAD_ARCHIVE', /wallets\/main differs from the manifest \(sha256 mismatch\)/),
  },
  {
    id: 'the file list edited (a file left out)',
    build: archive('left-out', () => {
      const g = genuine();
      return { ...g, m: { ...g.m, files: g.m.files.filter((f) => f.path !== 'wallets/main.keys') } };
    }),
    outcome: refused('BAD_ARCHIVE', /extra file wallets\/main\.keys \(not in the manifest\)/),
  },
  {
    id: 'a file the manifest lists is missing',
    build: withEntries('missing', (k, files) => entriesOf(k, files).slice(1)),
    outcome: refused('BAD_ARCHIVE', /missing file daemon\/testnet\/19\/lmdb\/sim-blocks\.jsonl/),
  },
  {
    id: 'a header lies about a size',
    build: withEntries('header-size', (k, files) => [
      ...entriesOf(k, new Map([...files].filter(([p]) => p !== 'wallets/main.keys'))),
      tarEntry(`${k}/wallets/main.keys`, 'keys A and more'),
    ]),
    outcome: refused('BAD_ARCHIVE', /wallets\/main\.keys has 15 bytes, the manifest says 6/),
  },
  {
    id: 'the manifest lies about a size',
    build: archive('manifest-size', () => {
      const g = genuine();
      const files = g.m.files.map((f) => (f.path === 'wallets/main' ? { ...f, size: 3 } : f));
      return { ...g, m: { ...g.m, files }, entries: entriesOf(g.m.key, g.files) };
    }),
    outcome: refused('BAD_ARCHIVE', /wallets\/main has 8 bytes, the manifest says 3/),
  },
  {
    id: 'an extra file',
    build: withEntries('extra', (k, files) => [...entriesOf(k, files), tarEntry(`${k}/wallets/evil.keys`, 'x')]),
    outcome: refused('BAD_ARCHIVE', /extra file wallets\/evil\.keys/),
  },
  {
    id: 'a path that climbs out (..)',
    build: withEntries('dotdot', (k, files) => [tarEntry(`${k}/wallets/../../escape`, 'x'), ...entriesOf(k, files)]),
    outcome: refused('BAD_ARCHIVE', /unsafe or unexpected path/),
  },
  {
    id: 'an absolute path',
    build: withEntries('absolute', (k, files) => [tarEntry('/tmp/escape.txt', 'x'), ...entriesOf(k, files)]),
    outcome: refused('BAD_ARCHIVE', /\/tmp\/escape\.txt lies outside/),
  },
  {
    id: 'a symlink',
    build: withEntries('symlink', (k, files) => [
      tarEntry(`${k}/wallets/link`, '', { type: 'SymbolicLink', linkpath: '/etc/passwd' }),
      ...entriesOf(k, files),
    ]),
    outcome: refused('BAD_ARCHIVE', /wallets\/link is a SymbolicLink entry/),
  },
  {
    id: 'a hard link',
    build: withEntries('hardlink', (k, files) => [
      tarEntry(`${k}/wallets/main`, '', { type: 'Link', linkpath: '/etc/passwd' }),
      ...entriesOf(k, files),
    ]),
    outcome: refused('BAD_ARCHIVE', /wallets\/main is a Link entry/),
  },
  {
    id: 'a file twice',
    build: withEntries('twice', (k, files) => [...entriesOf(k, files), tarEntry(`${k}/wallets/main`, 'wallet A')]),
    outcome: refused('BAD_ARCHIVE', /wallets\/main appears twice/),
  },
  {
    id: 'a path twice in the manifest',
    build: archive('dup-manifest', () => {
      const g = genuine();
      return { ...g, m: { ...g.m, files: [...g.m.files, g.m.files[0]!] } };
    }),
    outcome: refused('BAD_ARCHIVE', /duplicate path/),
  },
  {
    id: 'a file that is a folder too',
    build: withEntries('file-folder', (k, files) => [
      ...entriesOf(k, files),
      tarEntry(`${k}/wallets/main/inner`, '', { type: 'Directory' }),
    ]),
    outcome: refused('BAD_ARCHIVE', /wallets\/main is a file in the manifest and a folder in the archive/),
  },
];

const sizeCases: CraftedArchive[] = [
  {
    id: 'gzip bomb: 1 MB that expands to a 1 GiB file the manifest lists',
    build: (dir) => {
      const g = genuine();
      const m = {
        ...g.m,
        files: [...g.m.files, { path: 'daemon/big', size: GIB, sha256: 'a'.repeat(64), mode: 0o644 }],
      };
      const head = chainTar(m, g.files, [
        ...entriesOf(m.key, g.files),
        tarEntry(`${m.key}/daemon/big`, '', { size: GIB }),
      ]);
      return write(dir, 'bomb-listed', gzipWithZeros(head.subarray(0, head.length - END_OF_ARCHIVE.length), GIB));
    },
    outcome: refused('TOO_LARGE', /daemon\/big is 1 GiB \(1073741824 bytes\), more than an imported file may be/),
  },
  {
    id: 'gzip bomb: a header says 1 GiB, the manifest a few bytes',
    build: (dir) => {
      const g = genuine();
      const head = chainTar(g.m, g.files, [tarEntry(`${g.m.key}/${SIM_CHAIN}`, '', { size: GIB })]);
      return write(dir, 'bomb-header', gzipWithZeros(head.subarray(0, head.length - END_OF_ARCHIVE.length), GIB));
    },
    outcome: refused('BAD_ARCHIVE', /sim-blocks\.jsonl has 1073741824 bytes, the manifest says \d+/),
  },
  {
    id: 'gzip bomb: 1 GiB of zeros after the last entry',
    build: (dir) => write(dir, 'bomb-tail', gzipWithZeros(chainTar(genuine().m, genuine().files), GIB)),
    outcome: refused('TOO_LARGE', /expands to more than its manifest lists/, /gzip bomb/),
  },
  {
    id: 'more than the import limit',
    build: archive('limit', () => genuine()),
    options: { maxBytes: 1000 },
    outcome: refused(
      'TOO_LARGE',
      /its files add up to [\d.]+ KiB \(\d+ bytes\), more than an import may hold \(1000 bytes/,
    ),
  },
  {
    id: 'more than the cache has free',
    build: archive('space', () => genuine()),
    options: { freeBytes: async () => 4096 },
    outcome: refused('NO_SPACE', /its files need [\d.]+ MiB in .*snapshots, and only 4 KiB is free there/),
  },
];

export const CRAFTED_ARCHIVES: CraftedArchive[] = [...claimCases, ...fileCases, ...sizeCases];

// Shared bits of the snapshot store's tests: temp dirs removed after each test, trees of files
// written and read back with their modes.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ManifestInput } from '../../harness/snapshot/manifest.js';

export const SAVE_CHILD = fileURLToPath(new URL('./fixtures/save-child.mjs', import.meta.url));

const dirs: string[] = [];

export function tempDir(label = 'snapshot'): string {
  const d = mkdtempSync(join(tmpdir(), `saltnet-${label}-test-`));
  dirs.push(d);
  return d;
}

export function cleanup(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export type TreeSpec = Record<
  string,
  string | Buffer | { content: string | Buffer; mode: number } | null /* empty folder */
>;

/** Write files (and, for null values, empty folders) under root. */
export function writeTree(root: string, spec: TreeSpec): void {
  mkdirSync(root, { recursive: true });
  for (const [path, v] of Object.entries(spec)) {
    const abs = join(root, path);
    if (v === null) {
      mkdirSync(abs, { recursive: true });
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    const content = typeof v === 'string' || Buffer.isBuffer(v) ? v : v.content;
    writeFileSync(abs, content);
    chmodSync(abs, typeof v === 'object' && !Buffer.isBuffer(v) ? v.mode : 0o644);
  }
}

export interface TreeListing {
  /** path -> "<mode octal> <sha256>" */
  files: Record<string, string>;
  dirs: string[];
}

/** Every file (with mode and sha256) and folder under root. */
export function readTree(root: string): TreeListing {
  const out: TreeListing = { files: {}, dirs: [] };
  const visit = (abs: string, rel: string): void => {
    for (const d of readdirSync(abs, { withFileTypes: true })) {
      const p = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        out.dirs.push(p);
        visit(join(abs, d.name), p);
      } else {
        const mode = (statSync(join(abs, d.name)).mode & 0o777).toString(8);
        out.files[p] = `${mode} ${createHash('sha256')
          .update(readFileSync(join(abs, d.name)))
          .digest('hex')}`;
      }
    }
  };
  visit(root, '');
  out.dirs.sort();
  return out;
}

export const SHA_A = 'a'.repeat(64);

export function manifestInput(over: Partial<ManifestInput> = {}): ManifestInput {
  return {
    backend: 'sim',
    binaryVersion: 'Salvium One v1.0.7 (sim)',
    binaries: { salviumd: SHA_A, 'salvium-wallet-rpc': 'b'.repeat(64) },
    difficulty: 500,
    height: 1201,
    wallets: [{ name: 'main', addresses: { cn: 'SaLvTmain', carrot: 'SC1Tmain' } }],
    ...over,
  };
}

/** A daemon-like and a wallets-like source with nested folders, an empty folder and several modes. */
export function sampleSources(root: string, variant = 'A'): { daemon: string; wallets: string } {
  const daemon = join(root, `daemon-${variant}`);
  const wallets = join(root, `wallets-${variant}`);
  writeTree(daemon, {
    'testnet/lmdb/data.mdb': Buffer.alloc(200_000, variant),
    'testnet/lmdb/lock.mdb': 'lock',
    'testnet/p2pstate.bin': { content: `p2p ${variant}`, mode: 0o600 },
    'testnet/empty-dir': null,
    'salvium.log': `log ${variant}\n`,
    'bin/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
    'read-only.txt': { content: 'ro', mode: 0o444 },
    'empty-file': '',
    'deep/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/a-rather-long-file-name-to-need-a-pax-header.bin': `long ${variant}`,
    'ünïcode name.txt': 'utf8',
  });
  writeTree(wallets, {
    main: { content: `wallet ${variant}`, mode: 0o600 },
    'main.keys': { content: `keys ${variant}`, mode: 0o600 },
    'bob/bob.keys': { content: `bob ${variant}`, mode: 0o640 },
  });
  return { daemon, wallets };
}

/** Flip one byte of a file in place. */
export function flipByte(file: string, at = 0): void {
  const b = readFileSync(file);
  b[at] = (b[at] ?? 0) ^ 0xff;
  writeFileSync(file, b);
}

export async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

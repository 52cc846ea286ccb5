// The peak memory of `saltnet install --from` on a decompression bomb: a .tar.gz of a few MB that
// holds GiB of zeros (and a few MiB of random bytes, so its ratio looks like an archive's). Nothing
// here asserts; it prints the archive's size, its content and the CLI's peak RSS as
// `/usr/bin/time -v` reports it (Linux, with GNU time installed).
//
//   npm run build && node dist/scripts/bench-install-memory.js [--zeros-mib 1024] [--random-mib 3]
//
// The programs in the archive are shell scripts: the install is refused after unpacking (or, with
// content over the cap, before), which is fine: what is measured is the memory unpacking takes.
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { execa } from 'execa';
import { Header } from 'tar';

const MiB = 2 ** 20;
const CLI = fileURLToPath(new URL('../harness/cli/main.js', import.meta.url));

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

function header(path: string, size: number, mode = 0o644): Buffer {
  const block = Buffer.alloc(512);
  new Header({ path, mode, size, type: 'File', mtime: new Date(0), uid: 0, gid: 0 }).encode(block, 0);
  return block;
}

/** The tar stream of the bomb, made as it is read: the programs, `zeros` (zerosMiB) and `noise` (randomMiB). */
async function* bombTar(zerosMiB: number, randomMiB: number): AsyncGenerator<Buffer> {
  for (const n of ['salviumd', 'salvium-wallet-cli', 'salvium-wallet-rpc']) {
    const body = Buffer.from(`#!/bin/sh\necho "${n}: Salvium 'Bench' (v0.0.1-bench)"\n`);
    yield Buffer.concat([header(`bomb/${n}`, body.length, 0o755), body, Buffer.alloc(512 - body.length)]);
  }
  yield header('bomb/zeros', zerosMiB * MiB);
  const zero = Buffer.alloc(MiB);
  for (let i = 0; i < zerosMiB; i++) yield zero;
  yield header('bomb/noise', randomMiB * MiB);
  for (let i = 0; i < randomMiB; i++) yield randomBytes(MiB);
  yield Buffer.alloc(1024);
}

async function main(): Promise<void> {
  const zerosMiB = arg('zeros-mib', 1024);
  const randomMiB = arg('random-mib', 3);
  if (!existsSync('/usr/bin/time')) throw new Error('needs GNU time at /usr/bin/time (apt-get install -y time)');
  const dir = mkdtempSync(join(tmpdir(), 'saltnet-bench-install-'));
  try {
    const archive = join(dir, 'bomb.tar.gz');
    await pipeline(Readable.from(bombTar(zerosMiB, randomMiB)), createGzip({ level: 9 }), createWriteStream(archive));
    const r = await execa('/usr/bin/time', ['-v', process.execPath, CLI, 'install', '--from', archive], {
      env: { SALTNET_CACHE_DIR: join(dir, 'cache'), NO_COLOR: '1' },
      reject: false,
    });
    const stderr = String(r.stderr);
    const peakKiB = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? NaN);
    const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)/.exec(stderr)?.[1] ?? '?';
    const said = stderr
      .split('\n')
      .filter((l) => l.startsWith('saltnet'))
      .join('\n  ');
    const size = statSync(archive).size;
    process.stdout.write(
      `archive ${(size / MiB).toFixed(1)} MiB holding ${zerosMiB} MiB of zeros and ${randomMiB} MiB of random bytes\n` +
        `install --from: exit ${r.exitCode}, peak RSS ${(peakKiB / 1024).toFixed(0)} MiB, wall ${wall}\n  ${said}\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

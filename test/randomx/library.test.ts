// The machine's own librandomx through koffi, where it is installed (Debian: librandomx0): RandomX's published test
// vector hashed in light mode, and a file read into and written from library-allocated memory by address (pread and
// pwrite). Where it is not, the one thing checked is the message that says how to get it.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLAG_FULL_MEM, loadRandomx, loadRandomxFrom } from '../../harness/randomx/library.js';

const lib = loadRandomx();
const missing = 'missing' in lib ? lib.missing : undefined;
const real = 'missing' in lib ? undefined : lib;
const noKoffi = missing?.startsWith('koffi') ? missing : undefined;

describe('librandomx', () => {
  it.skipIf(!real)(
    `RandomX's test vector in light mode: key "test key 000", input "This is a test"${missing ? ` (skipped: ${missing})` : ''}`,
    async () => {
      const rx = real!;
      // RandomX 1.x: (2 GiB + 32 MiB - 64 bytes) of 64-byte items
      expect(rx.itemCount).toBe(34_078_719);
      const cache = rx.allocCache(rx.flags);
      await rx.initCache(cache, Buffer.from('test key 000'));
      const vm = rx.createVm(rx.flags, cache, 0);
      const out = Buffer.alloc(32);
      await rx.hash(vm, Buffer.from('This is a test'), out);
      expect(out.toString('hex')).toBe('639183aae1bf4c9a35884cb46b09cad9175f04efd7684e7262a0ac1c2f0b4e3f');
      const again = Buffer.alloc(32);
      rx.hashSync(vm, Buffer.from('This is a test'), again);
      expect(again.equals(out)).toBe(true);
      rx.destroyVm(vm);
      rx.releaseCache(cache);
    },
  );

  it.skipIf(!real)(
    `readInto and writeFrom move bytes between files and the dataset's memory${missing ? ` (skipped: ${missing})` : ''}`,
    async () => {
      const rx = real!;
      const dir = mkdtempSync(join(tmpdir(), 'saltnet-librandomx-'));
      const dataset = await rx.allocDataset(rx.flags | FLAG_FULL_MEM);
      try {
        const bytes = randomBytes(10_000);
        writeFileSync(join(dir, 'in'), Buffer.concat([Buffer.alloc(3000), bytes]));
        const memory = rx.datasetMemory(dataset);
        const fdIn = openSync(join(dir, 'in'), 'r');
        const fdOut = openSync(join(dir, 'out'), 'w');
        try {
          expect(await rx.readInto(fdIn, memory + 640, bytes.length, 3000)).toBe(bytes.length);
          expect(await rx.writeFrom(fdOut, memory + 640, bytes.length, 100)).toBe(bytes.length);
        } finally {
          closeSync(fdIn);
          closeSync(fdOut);
        }
        const out = readFileSync(join(dir, 'out'));
        expect(out.length).toBe(100 + bytes.length);
        expect(out.subarray(100).equals(bytes)).toBe(true);
      } finally {
        rx.releaseDataset(dataset);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(noKoffi)(
    `a library that is not there: the message names it and the package to install${noKoffi ? ` (skipped: ${noKoffi})` : ''}`,
    () => {
      const r = loadRandomxFrom({ SALTNET_LIBRANDOMX: '/nonexistent/librandomx.so' });
      if (!('missing' in r)) throw new Error('a library loaded from /nonexistent');
      expect(r.missing).toContain('librandomx is not installed (/nonexistent/librandomx.so: ');
      expect(r.missing).toContain('apt-get install librandomx0');
    },
  );
});

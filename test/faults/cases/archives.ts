// Crafted archives and artifacts: the file where those cases go. Each case is one entry; the suite
// (faults.test.ts) runs it in a folder of its own and counts hangs, stack traces, lost data, files
// written outside their folders and foreign processes signalled, as for every other case.
//
// To add one: write the crafted file into `ctx.dir` (put()), run the command that reads it with
// `ctx.cli([...])`, and expect its exit code and message; check that nothing appeared outside the
// case's folder with ctx.inside(path) for each path it reports, and call ctx.lost(what) where a
// cached state or a report was damaged.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { expect } from 'vitest';
import { programs, tarGz } from '../../install/helpers.js';
import { put, type FaultCase } from '../kit.js';

/** What `saltnet install` left in a cache's bin folder (nothing, after a refusal: no staging folder, no record). */
const binOf = (cache: string): string[] => (existsSync(join(cache, 'bin')) ? readdirSync(join(cache, 'bin')) : []);

export const ARCHIVE_CASES: FaultCase[] = [
  {
    id: 'snapshot load of an empty file and of a truncated gzip: refused, naming the file',
    kind: 'archive',
    async run(ctx) {
      const empty = put(join(ctx.dir, 'empty.tar.gz'), '');
      const cut = join(ctx.dir, 'cut.tar.gz');
      put(cut, '\x1f\x8b\x08\x00\x00\x00\x00\x00');
      for (const file of [empty, cut]) {
        const r = await ctx.cli(['snapshot', 'load', file, '--backend', 'sim']);
        expect(r.code).toBe(1);
        expect(r.out).toContain(file);
      }
    },
  },
  {
    id: 'install --from a 4 KiB .tar.gz whose entry declares 5 GiB: refused at that header, naming it and the cap',
    kind: 'archive',
    async run(ctx) {
      // The entry's header claims 5 GiB and the archive ends 1 KiB into it: only its declaration can be read.
      const block = Buffer.alloc(512);
      new Header({ path: 'salvium/blob', mode: 0o644, size: 5 * 2 ** 30, type: 'File', mtime: new Date(0) }).encode(
        block,
        0,
      );
      const archive = join(ctx.dir, 'salvium-v9.9.9-bomb.tar.gz');
      writeFileSync(archive, gzipSync(Buffer.concat([block, Buffer.alloc(1024)])));
      const cache = join(ctx.dir, 'cache');
      const r = await ctx.cli(['install', '--from', archive], { env: { SALTNET_CACHE_DIR: cache } });
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain(
        'refusing salvium-v9.9.9-bomb.tar.gz: its entries declare more content than the cap of 4 GiB (4294967296 bytes), ' +
          'passed at entry "salvium/blob" (5368709120 bytes',
      );
      expect(r.out).toContain('nothing was unpacked');
      expect(binOf(cache)).toEqual([]);
    },
  },
  {
    id: 'install --from an archive whose programs are shell scripts: refused before any of them runs, naming each',
    kind: 'archive',
    async run(ctx) {
      const ran = join(ctx.dir, 'a-script-ran');
      const script = (name: string): string => `#!/bin/sh\ntouch ${ran}\necho "${name}: Salvium 'One' (v9.9.9)"\n`;
      const entries = programs('salvium-v9.9.9/', 0o755).map((e) => ({ ...e, body: script(e.path.split('/')[1]!) }));
      const archive = join(ctx.dir, 'salvium-v9.9.9-scripts.tar.gz');
      writeFileSync(archive, tarGz(entries));
      const cache = join(ctx.dir, 'cache');
      const r = await ctx.cli(['install', '--from', archive], { env: { SALTNET_CACHE_DIR: cache } });
      expect(r.code, r.out).toBe(1);
      for (const n of ['salviumd', 'salvium-wallet-cli', 'salvium-wallet-rpc'])
        expect(r.out).toContain(`salvium-v9.9.9/${n} is a shell script (#!/bin/sh)`);
      expect(r.out).toContain('Nothing was run and nothing was installed');
      expect(existsSync(ran)).toBe(false);
      expect(binOf(cache)).toEqual([]);
    },
  },
];

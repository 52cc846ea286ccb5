// Crafted archives and artifacts: the file where those cases go. Each case is one entry; the suite
// (faults.test.ts) runs it in a folder of its own and counts hangs, stack traces, lost data, files
// written outside their folders and foreign processes signalled, as for every other case.
//
// To add one: write the crafted file into `ctx.dir` (put()), run the command that reads it with
// `ctx.cli([...])`, and expect its exit code and message; check that nothing appeared outside the
// case's folder with ctx.inside(path) for each path it reports, and call ctx.lost(what) where a
// cached state or a report was damaged.
import { join } from 'node:path';
import { expect } from 'vitest';
import { put, type FaultCase } from '../kit.js';

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
];

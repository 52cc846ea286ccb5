// What saltnet reads of the kernel's huge page pool, and what it says about it to a full-mode testnet: enough for its
// daemons, for some, or none (then the sysctl that reserves enough, counting the pages already taken).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  heldPages,
  hugePagesNote,
  pagesFor,
  poolBefore,
  readHugePages,
} from '../../harness/testnet/programs/hugepages.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const dir = tempDir('saltnet-hugepages-');
afterAll(() => cleanup(dir));

function meminfo(total: number, free: number, sizeKiB = 2048): string {
  const f = join(dir, `meminfo-${total}-${free}-${sizeKiB}`);
  writeFileSync(
    f,
    `MemTotal:       24576000 kB\nHugePages_Total:    ${total}\nHugePages_Free:     ${free}\nHugePages_Rsvd:        0\nHugepagesize:       ${sizeKiB} kB\n`,
  );
  return f;
}

it('reads the pool from /proc/meminfo, and nothing where there is none', () => {
  expect(readHugePages(meminfo(3000, 1701))).toEqual({ total: 3000, free: 1701, sizeKiB: 2048 });
  expect(readHugePages(join(dir, 'absent'))).toBeUndefined();
  writeFileSync(join(dir, 'bare'), 'MemTotal: 1 kB\n');
  expect(readHugePages(join(dir, 'bare'))).toBeUndefined();
});

it('counts 1300 pages of 2 MiB per full-mode daemon, fewer of a larger size', () => {
  expect(pagesFor(1)).toBe(1300);
  expect(pagesFor(2)).toBe(2600);
  expect(pagesFor(1, 1024 * 1024)).toBe(3);
});

it('says whether the free pages hold every full-mode daemon, some, or none, and what to reserve', () => {
  expect(hugePagesNote(2, readHugePages(meminfo(2600, 2600)))).toBe(
    'huge pages: 2600 free, enough for 2 full-mode daemons',
  );
  expect(hugePagesNote(2, readHugePages(meminfo(1500, 1400)))).toBe(
    'huge pages: 1400 free, enough for 1 full-mode daemon of 2 (sudo sysctl -w vm.nr_hugepages=2700 for all)',
  );
  expect(hugePagesNote(1, readHugePages(meminfo(0, 0)))).toBe(
    'no huge pages free: RandomX hashes ~1.5x faster with them (sudo sysctl -w vm.nr_hugepages=1300; docs/difficulty.md#huge-pages)',
  );
  expect(hugePagesNote(1, undefined)).toBeUndefined();
});

it("counts the pages the testnet's own daemons took as free: they were, when it started them", () => {
  const proc = join(dir, 'proc');
  const status = (pid: number, kib: number): void => {
    mkdirSync(join(proc, String(pid)), { recursive: true });
    writeFileSync(join(proc, String(pid), 'status'), `Name:\tsalviumd\nHugetlbPages:\t${kib} kB\nThreads:\t9\n`);
  };
  status(101, 1299 * 2048);
  status(102, 1300 * 2048);
  expect(heldPages([101, 102, 999], 2048, proc)).toBe(2599);
  // Two daemons took 2599 of 2600 pages: not "no huge pages free", but enough for both.
  const after = readHugePages(meminfo(2600, 1));
  expect(hugePagesNote(2, after)).toMatch(/^no huge pages free/);
  expect(hugePagesNote(2, poolBefore(after, [101, 102], proc))).toBe(
    'huge pages: 2600 free, enough for 2 full-mode daemons',
  );
  expect(poolBefore(undefined, [101], proc)).toBeUndefined();
});

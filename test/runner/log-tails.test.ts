// What a failed scenario shows of each program's log: the lines about the failure, the miner's
// Found block lines folded into one, not the daemon's banner or the wallet CLIs of the build — and
// never a key; read from the end of the log file, where a long mine cannot push them out.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileTail, logTails, meaningfulLines } from '../../harness/runner/log-tails.js';
import { cleanup, tempDir } from '../helpers/sim.js';

let dir: string;
beforeAll(() => void (dir = tempDir('saltnet-log-tails-')));
afterAll(() => cleanup(dir));

const found = (h: number): string =>
  `2026-11-26 01:01:39.808\tI Found block <${'ab'.repeat(32)}> at height ${h} for difficulty: 500`;

it('folds Found block lines into one, drops the banner, and keeps the last lines that say something', () => {
  const lines = [
    '2026-11-26 01:01:39.700\tI Binding on 127.0.0.1 (IPv4):33435',
    ...Array.from({ length: 20 }, (_, i) => found(948 + i)),
    '2026-11-26 01:01:39.810\tI Miner thread stopped [0]',
    '2026-11-26 01:01:39.951\tI **********************************************************************',
    '2026-11-26 01:01:39.951\tI The daemon is running offline and will not attempt to sync to the Salvium network.',
    '2026-11-26 01:01:39.952\tE Error: tx rejected: double spend',
  ];
  expect(meaningfulLines(lines, 12)).toEqual([
    '2026-11-26 01:01:39.700\tI Binding on 127.0.0.1 (IPv4):33435',
    '[saltnet: 20 × Found block, heights 948–967]',
    '2026-11-26 01:01:39.952\tE Error: tx rejected: double spend',
  ]);
  expect(meaningfulLines([found(5)], 3)).toEqual(['[saltnet: 1 × Found block, height 5]']);
});

it("reads the daemon's lines from its log file when a long mine filled its in-memory tail", () => {
  // A mine of thousands of blocks (seen: 5,316 Found block lines) after the lines that say something: the program's
  // in-memory tail holds only Found block lines, its log file holds everything.
  const lines = [
    '2026-11-26 01:01:39.700\tI core RPC server started ok',
    '2026-11-26 01:01:39.701\tE Error adding transaction to the pool: double spend',
    '2026-11-26 01:01:39.702\tI Miner thread was started [0]',
    ...Array.from({ length: 5316 }, (_, i) => found(1201 + i)),
  ];
  const logFile = join(dir, 'daemon.log');
  writeFileSync(logFile, `${lines.join('\n')}\n`);
  const daemon = { name: 'daemon', logFile, tail: (n = 500) => lines.slice(-Math.min(n, 500)) };
  expect(logTails([daemon]).daemon).toEqual([
    '2026-11-26 01:01:39.700\tI core RPC server started ok',
    '2026-11-26 01:01:39.701\tE Error adding transaction to the pool: double spend',
    '[saltnet: 5316 × Found block, heights 1201–6516]',
  ]);
  // a log file that is gone: the in-memory tail
  expect(logTails([{ ...daemon, logFile: join(dir, 'gone.log') }]).daemon).toEqual([
    '[saltnet: 400 × Found block, heights 6117–6516]',
  ]);
});

it("reads the last whole lines of a log file's end", () => {
  const logFile = join(dir, 'cut.log');
  writeFileSync(logFile, 'first line\nsecond line\nthird\n');
  expect(fileTail(logFile, 18)).toEqual(['second line', 'third']);
  expect(fileTail(logFile, 17)).toEqual(['third']);
  expect(fileTail(logFile)).toEqual(['first line', 'second line', 'third']);
  expect(fileTail(join(dir, 'none.log'))).toBeUndefined();
});

it('redacts keys a wallet program prints', () => {
  const key = 'c'.repeat(64);
  expect(meaningfulLines([`View key: ${key}`, `Secret spend key: ${key}`], 5)).toEqual([
    'View key: ***',
    'Secret spend key: ***',
  ]);
});

it('leaves out the wallet CLIs that built the chain state', () => {
  const p = (name: string, lines: string[]) => ({ name, tail: () => lines });
  expect(Object.keys(logTails([p('daemon', ['a']), p('wallet-cli-main', ['b']), p('wallet-rpc', ['c'])]))).toEqual([
    'daemon',
    'wallet-rpc',
  ]);
});

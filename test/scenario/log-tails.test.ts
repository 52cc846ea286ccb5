// What a failed scenario shows of each program's log: the lines about the failure, not the miner's
// Found block lines, the daemon's banner or the wallet CLIs of the build — and never a key.
import { expect, it } from 'vitest';
import { logTails, meaningfulLines } from '../../harness/scenario/log-tails.js';

const found = (h: number): string =>
  `2026-11-26 01:01:39.808\tI Found block <${'ab'.repeat(32)}> at height ${h} for difficulty: 500`;

it('drops Found block lines and the banner, and keeps the last lines that say something', () => {
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
    '2026-11-26 01:01:39.952\tE Error: tx rejected: double spend',
  ]);
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

// The RandomX dataset of a full-mode daemon, made visible: the daemon logs the randomx category at
// INFO (its "RandomX dataset initialized" line), and a mine step that began while the dataset was
// being built says how long it waited for it. On the simulator (no RandomX) none of this applies;
// test/real/1-up.cases.ts checks the flag and the log on the real daemon.
import { describe, expect, it } from 'vitest';
import { daemonArgs, type DaemonOptions } from '../../harness/testnet/programs/daemon.js';
import { datasetNote } from '../../harness/scenario/steps/mine.js';

const ports = { rpc: 1, zmq: 2, p2p: 3 };
const base: DaemonOptions = { workdir: '/w', difficulty: 500, timeoutMs: 1000 };

describe('the daemon’s arguments', () => {
  it('full mode logs the randomx category at INFO, over level 0', () => {
    const args = daemonArgs({ ...base, randomx: 'full' }, ports);
    expect(args.join(' ')).toContain('--log-level 0,randomx:INFO');
  });

  it('light mode and no RandomX leave the log level alone', () => {
    expect(daemonArgs({ ...base, randomx: 'light' }, ports)).not.toContain('--log-level');
    expect(daemonArgs(base, ports)).not.toContain('--log-level');
  });

  it('a log level of the caller’s own is kept, and not given twice (the daemon refuses an option twice)', () => {
    const args = daemonArgs({ ...base, randomx: 'full', extraArgs: ['--log-level', '2'] }, ports);
    expect(args.filter((a) => a === '--log-level')).toHaveLength(1);
    expect(args.slice(-2)).toEqual(['--log-level', '2']);
  });
});

describe('the mine step’s note', () => {
  const startedAt = 1_000_000;

  it('says how long the step waited for the dataset, and how long it took to build', () => {
    const note = datasetNote([{ node: 'n0', startedAt, readyAt: startedAt + 55_000 }], 'n0', startedAt + 5_000);
    expect(note).toBe('50.0 s of it waiting for the RandomX dataset of n0 (built once per daemon start, in 55.0 s)');
  });

  it('says so when the dataset is still not built after the step', () => {
    expect(datasetNote([{ node: 'n1', startedAt }], 'n1', startedAt + 1000)).toBe(
      'the RandomX dataset of n1 was still being built (mining waits for it)',
    );
  });
});

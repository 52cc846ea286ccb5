// The fault-injection suite: every case of cases/*.ts breaks something under a running (or
// starting) saltnet — a program frozen or killed at each phase, a full disk, a workdir removed, a
// port taken, two writers, crafted registries, locks and archives, half-sent requests to each
// server, a command interrupted while the testnet works for it — and checks what saltnet says and
// does. Two cases run at a time (two cores), each in a folder of its own (kit.ts). At the end it
// prints the counts and asserts that all but the number of cases are 0: hangs, stack traces, data
// lost, files outside their folders, foreign processes signalled (and processes left running).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/sim.js';
import { ARCHIVE_CASES } from './cases/archives.js';
import { CONTROL_CASES } from './cases/control.js';
import { ENVIRONMENT_CASES } from './cases/environment.js';
import { INPUT_CASES } from './cases/inputs.js';
import { FREEZE_CASES, KILL_CASES } from './cases/programs.js';
import { SERVER_CASES } from './cases/servers.js';
import {
  alive,
  counts,
  FaultContext,
  fingerprint,
  foreignProcesses,
  marked,
  signal,
  STACK,
  type FaultCase,
  type Suite,
} from './kit.js';

const ALL: FaultCase[] = [
  ...FREEZE_CASES,
  ...KILL_CASES,
  ...ENVIRONMENT_CASES,
  ...INPUT_CASES,
  ...SERVER_CASES,
  ...ARCHIVE_CASES,
  ...CONTROL_CASES,
];
// FAULTS_ONLY=<regex>: only the cases whose kind and id match (to work on a few).
const only = process.env['FAULTS_ONLY'] ? new RegExp(process.env['FAULTS_ONLY'], 'i') : undefined;
const CASES = only ? ALL.filter((c) => only.test(`${c.kind}: ${c.id}`)) : ALL;
const PARALLEL = 2;
const BOUND_MS = 120_000;

let suite: Suite;
let before = '';
let foreign: ReturnType<typeof foreignProcesses>;
let orphans = 0;
const took: [string, number][] = [];

beforeAll(() => {
  const root = tempDir('saltnet-faults-');
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'canary.json'), '{"canary": true}\n');
  symlinkSync(outside, join(root, 'link-to-outside'));
  foreign = foreignProcesses(4);
  suite = { root, outside, cache: join(root, 'cache'), foreign: foreign.pids, mark: `faults-${process.pid}` };
  before = fingerprint(outside);
});

afterAll(() => {
  for (const c of foreign.children) c.kill('SIGKILL');
  cleanup(suite.root);
});

// Two cases at a time.
let free = PARALLEL;
const waiting: (() => void)[] = [];
async function slot(): Promise<() => void> {
  while (free === 0) await new Promise<void>((r) => waiting.push(r));
  free--;
  return () => {
    free++;
    waiting.shift()?.();
  };
}

async function runCase(c: FaultCase, index: number): Promise<void> {
  const release = await slot();
  const ctx = new FaultContext(suite, c.id, index);
  counts.cases++;
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const bound = c.boundMs ?? BOUND_MS;
    const hang = new Promise<never>((_, fail) => {
      timer = setTimeout(() => {
        counts.hangs++;
        fail(new Error(`the case did not end within ${bound / 1000} s`));
      }, bound);
    });
    await Promise.race([c.run(ctx), hang]);
  } finally {
    clearTimeout(timer);
    await ctx.cleanup().catch(() => undefined);
    // What is left of the case once it was stopped (its reapers exit within a poll): counted, then killed.
    let left = marked(ctx.env['SALTNET_FAULT_MARK']!);
    for (let i = 0; i < 30 && left.length; i++) {
      await sleep(100);
      left = marked(ctx.env['SALTNET_FAULT_MARK']!);
    }
    orphans += left.length;
    for (const l of left) signal(l.pid, 'SIGKILL');
    took.push([c.id, Date.now() - t0]);
    const stacks = ctx.printed().filter((o) => STACK.test(o));
    counts.stackTraces += stacks.length;
    release();
    expect(stacks, 'stack traces in what saltnet printed').toEqual([]);
    expect(
      left.map((l) => l.cmdline),
      'processes left running',
    ).toEqual([]);
  }
}

describe('faults', () => {
  it('has a case of every kind', () => {
    const kinds = new Set(ALL.map((c) => c.kind));
    for (const k of [
      'freeze',
      'kill',
      'interrupt',
      'disk',
      'workdir',
      'ports',
      'writers',
      'registry',
      'half-sent',
      'config',
    ])
      expect(kinds.has(k as FaultCase['kind']), k).toBe(true);
    expect(new Set(ALL.map((c) => c.id)).size).toBe(ALL.length);
  });
  CASES.forEach((c, i) => {
    it.concurrent(`${c.kind}: ${c.id}`, { timeout: (c.boundMs ?? BOUND_MS) + 60_000 }, () => runCase(c, i));
  });
});

describe('fault counts', () => {
  it('are 0 but for the number of cases', () => {
    if (fingerprint(suite.outside) !== before) counts.filesOutside++;
    counts.foreignSignalled = suite.foreign.filter((p) => !alive(p)).length;
    const line = Object.entries({ ...counts, processesLeft: orphans })
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    console.log(`fault suite: ${line}`);
    const slow = took.sort((a, b) => b[1] - a[1]).slice(0, 5);
    console.log(`slowest: ${slow.map(([id, ms]) => `${(ms / 1000).toFixed(1)} s ${id.slice(0, 60)}`).join('; ')}`);
    expect(counts.cases).toBe(CASES.length);
    expect({ ...counts, cases: 0, processesLeft: orphans }).toEqual({
      cases: 0,
      hangs: 0,
      stackTraces: 0,
      dataLost: 0,
      filesOutside: 0,
      foreignSignalled: 0,
      processesLeft: 0,
    });
  });
});

// What the two files of the example suite at 500 share (9-suite-500 and 9-suite-500-rest): the example files, and a
// shared run of some of them on the real programs at the default difficulty, on the suite's chain state (the default
// one, built by 1-up beside the sim tier) served at 500, with their wallets funded ahead at 1.
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from 'vitest';
import { suiteChain } from '../../harness/scenario/needs.js';
import { runFiles } from '../../harness/scenario/runner.js';
import type { ScenarioResult } from '../../harness/scenario/types.js';
import { BACKENDS } from '../../harness/testnet/backends.js';
import { BIN_DIR, CACHE_DIR } from './real.js';

/**
 * Run by 9-suite-500-rest.test.ts, in this order, on a testnet of its own, after the tier's other files: the five
 * slowest at 500 after the funding (docs/difficulty.md). token-hard-forks last: the blocks of the others take its chain
 * part of the way to its hard forks at 1300 and 1400 (on the simulator, from 1283 to 1296).
 */
export const REST = ['multi-asset', 'reorg-payment', 'token-receiver', 'transfer-lookup', 'token-hard-forks'];

/** Every example scenario, by name. */
export function exampleFiles(): string[] {
  const all = readdirSync('scenarios')
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join('scenarios', f));
  expect(all.length).toBeGreaterThanOrEqual(33);
  return all;
}

export const nameOf = (file: string): string => basename(file, '.yaml');

export interface SuiteRun {
  results: ScenarioResult[];
  log: string;
}

/** `files` in this order on one shared testnet at 500; every one must pass. */
export async function runAt500(files: string[], artifactsRoot: string, what: string): Promise<SuiteRun> {
  const lines: string[] = [];
  const t0 = Date.now();
  const results = await runFiles(files, {
    backend: 'salvium',
    binDir: BIN_DIR,
    cacheDir: CACHE_DIR,
    difficulty: 500,
    isolation: 'shared',
    workers: 1,
    bail: false,
    // The suite's chain (the default one): built by 1-up beside the sim tier before this file runs.
    chain: await suiteChain(exampleFiles(), BACKENDS.salvium!),
    artifactsRoot,
    log: (l) => lines.push(l),
  });
  const took = (Date.now() - t0) / 1000;
  const log = lines.join('\n');
  expect(
    results.map((r) => [nameOf(r.file), r.status, r.failure?.message]),
    log,
  ).toEqual(files.map((f) => [nameOf(f), 'passed', undefined]));
  const each = results.map((r) => `${nameOf(r.file)} ${(r.ms / 1000).toFixed(1)} s`).join(', ');
  process.stderr.write(`real tier: ${results.length} ${what} at difficulty 500 in ${took.toFixed(1)} s (${each})\n`);
  return { results, log };
}

/**
 * The run's wallets were paid once, at difficulty 1, on the tier's chain state (its cache is this run's own, so the
 * state is built here), saved, and restored: no scenario mined for its funds at 500. Its tokens held before the steps
 * were made with the wallets (at 1), not by their scenarios at 500: every one of them.
 */
export function expectFundedAhead(log: string): void {
  expect(log).toMatch(/no snapshot salvium-d1-\S+-ahead-[0-9a-f]{12}: funding the scenarios' wallets at difficulty 1/);
  expect(log).toMatch(/funded \d+ scenario wallets ahead in [\d.]+ s \(\d+ blocks\)/);
  expect(log).toMatch(/funded \d+ scenario wallets ahead: restored with snapshot salvium-d1-\S+-ahead-/);
  const made = /made (\d+) of (\d+) tokens ahead in [\d.]+ s \(\d+ blocks\)/.exec(log);
  expect(made?.[1], log).toBe(made?.[2] ?? 'a line: made N of N tokens ahead');
}

// A program that refuses its command line says why in its first line (boost's `Failed to parse arguments: …`) and
// then prints its whole option list: the report of its failed start quotes that line, and the last lines after it.
// The fixture is what salviumd v1.1.3c printed on stderr (exit 1) for
// `salviumd --testnet --data-dir … --offline --add-exclusive-node 127.0.0.1:1 --add-exclusive-node 127.0.0.1:2
// --fixed-difficulty 1 --fixed-difficulty 2` (the peers may be repeated; --fixed-difficulty may not).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessExitedError, refusalLine, reportLines } from '../../harness/process/errors.js';
import { createSupervisor, type Supervisor } from '../../harness/process/supervisor.js';
import { resolveBackend } from '../../harness/testnet/programs/binaries.js';
import { defineDaemon } from '../../harness/testnet/programs/daemon.js';
import { Program } from '../../harness/testnet/programs/program.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const FIXTURE = fileURLToPath(
  new URL('../../fixtures/salvium-v1.1.3c/salviumd-option-twice.stderr.txt', import.meta.url),
);
/** The lines as the supervisor's transcript keeps them. */
const REAL = readFileSync(FIXTURE, 'utf8').replace(/\n$/, '').split('\n');
const WHY = "Failed to parse arguments: option '--fixed-difficulty' cannot be specified more than once";

describe('the report of a program that refused its command line (salviumd v1.1.3c output)', () => {
  it('finds the line that says why, 243 lines before the end', () => {
    expect(REAL.length).toBe(244);
    expect(refusalLine(REAL)).toBe(WHY);
    expect(REAL.slice(-30)).not.toContain(WHY);
  });

  it('quotes it first, says how many lines are left out, then the last lines: n in all', () => {
    const lines = reportLines(REAL, 10);
    expect(lines).toHaveLength(10);
    expect(lines.slice(0, 2)).toEqual([WHY, '[… 235 lines left out …]']);
    expect(lines.slice(2)).toEqual(REAL.slice(-8));
  });

  it('names it in the first line of the error, and keeps it in the tail block', () => {
    const err = new ProcessExitedError({
      processName: 'daemon',
      exit: { code: 1, signal: null, expected: false },
      tail: REAL,
      logFile: '/wd/logs/daemon.log',
      during: 'before it was ready (after 20 ms)',
    });
    const lines = err.message.split('\n');
    expect(lines[0]).toBe(`daemon exited with code 1 before it was ready (after 20 ms): ${WHY}`);
    expect(lines[1]).toBe(
      '--- the line that says why, and the last 28 lines of output (full log: /wd/logs/daemon.log) ---',
    );
    expect(lines.slice(2, 4)).toEqual([WHY, '[… 215 lines left out …]']);
    expect(lines.at(-2)).toBe(REAL.at(-1));
    expect(err.refusal).toBe(WHY);
  });

  it('is the plain tail when the line is among the last lines, or when there is none', () => {
    const short = REAL.slice(0, 5);
    expect(reportLines(short, 10)).toEqual(short);
    expect(reportLines(REAL.slice(1), 10)).toEqual(REAL.slice(-10));
    const err = new ProcessExitedError({
      processName: 'x',
      exit: { code: 2, signal: null, expected: false },
      tail: ['a'],
    });
    expect(err.message.split('\n')[0]).toBe('x exited with code 2');
    expect(err.refusal).toBeUndefined();
  });
});

describe('a daemon started with a bad option (sim)', () => {
  let sup: Supervisor | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await sup?.stopAll();
    if (dir) cleanup(dir);
    sup = dir = undefined;
  });

  it('fails its start at once, not started again, saying why in the error and in the log', async () => {
    dir = tempDir('saltnet-refusal-');
    const s = (sup = createSupervisor({ workdir: dir, trapSignals: false, reaper: false }));
    const logged: string[] = [];
    const p = new Program(
      defineDaemon(
        s,
        resolveBackend('sim'),
        { workdir: dir, timeoutMs: 60_000, extraArgs: ['--fixed-difficulty', '7'] },
        () => ({ difficulty: 1 }),
      ),
      { log: (l) => logged.push(l), onFatal: () => undefined, phase: () => 'while starting' },
    );
    const err = await p.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProcessExitedError);
    const why = WHY;
    expect((err as Error).message.split('\n')[0]).toMatch(/^daemon exited with code 1 before it was ready.*: Failed/);
    expect((err as Error).message.split('\n')[0]).toContain(why);
    expect((err as Error).message).toContain(`\n${why}\n[… `);
    // Once: the same command line would be refused on every start.
    expect(p.crashes).toHaveLength(1);
    expect(p.crashes[0]!.tail[0]).toBe(why);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.split('\n')[0]).toBe(
      `saltnet: daemon exited with code 1 while starting: ${why}; not started again: it refused its command line, as it would on every start`,
    );
    expect(logged[0]).toContain(`\n    ${why}\n    [… `);
  });
});

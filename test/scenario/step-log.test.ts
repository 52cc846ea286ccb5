// The log step: a line in a program's log, found among what the previous step caused (Bitcoin's
// assert_debug_log), absent when asked, and a clear failure with the file and the last lines.
// The patterns are lines the real programs print too (docs/scenario-language.md, step log).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../harness/scenario/parse.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { ScenarioError, type ScenarioResult } from '../../harness/scenario/types.js';
import { cleanup, tempDir } from '../helpers/sim.js';

let dir: string;
let results: Map<string, ScenarioResult>;

const scenario = (name: string, steps: string): string => {
  const f = join(dir, `${name.replace(/\W+/g, '-')}.yaml`);
  writeFileSync(f, `name: ${name}\nrequires: { height: 30 }\nwallets: { bob: {} }\nsteps:\n${steps}`);
  return f;
};

beforeAll(async () => {
  dir = tempDir('saltnet-step-log-');
  const files = [
    scenario(
      'a mined block is logged',
      `  - mine: 1
  - name: the daemon logged the block it found
    log: { program: daemon, matches: "Found block <[0-9a-f]{64}> at height [0-9]+" }
    save: { line: result.line }
`,
    ),
    scenario(
      'a line from before the previous step is not seen',
      `  - mine: 1
  - name: nothing mined here
    call: { path: /get_height }
  - name: the block was found before the previous step
    log: { program: daemon, contains: "Found block", within: 1 }
`,
    ),
    scenario(
      'absent holds when nothing is written',
      `  - call: { path: /get_height }
  - log: { program: daemon, contains: "Found block", within: 1, absent: true }
  - log: { program: daemon, contains: "Found block", since: scenario, within: 1, absent: true }
`,
    ),
    scenario(
      'absent fails when the line is written',
      `  - mine: 1
  - log: { program: daemon, contains: "Found block", absent: true }
`,
    ),
    scenario(
      'the wallet RPC log after a restart',
      `  - restart: wallet
    wallet: bob
  - log: { program: wallet, contains: "Starting wallet RPC server" }
    wallet: bob
`,
    ),
  ];
  const ran = await runFiles(files, {
    backend: 'sim',
    isolation: 'shared',
    workers: 1,
    bail: false,
    artifactsRoot: join(dir, 'arts'),
    log: () => undefined,
    daemonEnv: { SALTNET_SIM_HASHRATE: '250000' },
  });
  results = new Map(ran.map((r) => [r.name, r]));
}, 180_000);
afterAll(() => cleanup(dir));

describe('log', () => {
  it('finds the line the previous step caused, and answers it', () => {
    const r = results.get('a mined block is logged')!;
    expect(r.status, r.failure?.message).toBe('passed');
    expect((r.steps[1]?.response as { result: { line: string } }).result.line).toMatch(
      /\tI Found block <[0-9a-f]{64}> at height \d+ for difficulty: \d+$/,
    );
  });

  it('looks only at lines written since the previous step started, and says where it looked', () => {
    const r = results.get('a line from before the previous step is not seen')!;
    expect(r.status).toBe('failed');
    expect(r.failure?.message).toMatch(
      /^log: no line containing "Found block" in the daemon's log \S+daemon\.log within 1 s \(\d+ lines? since the previous step started/,
    );
    expect(r.failure?.pos?.line).toBe(8);
  });

  it('absent: passes when no such line comes, fails with the line when one does', () => {
    const held = results.get('absent holds when nothing is written')!;
    expect(held.status, held.failure?.message).toBe('passed'); // bob's funding was mined before the first step: not seen
    const r = results.get('absent fails when the line is written')!;
    expect(r.status).toBe('failed');
    expect(r.failure?.message).toMatch(/^log: the daemon wrote a line containing "Found block": .*Found block </);
  });

  it("reads the step's wallet RPC log", () => {
    const r = results.get('the wallet RPC log after a restart')!;
    expect(r.status, r.failure?.message).toBe('passed');
  });
});

describe('log fields', () => {
  const problems = (steps: string): string[] => {
    try {
      parseScenario(`name: x\nsteps:\n${steps}`, 'x.yaml');
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      return e.problems.map((p) => `${p.pos.line}:${p.pos.col} ${p.path}: ${p.message}`);
    }
    return [];
  };

  it('needs contains or matches, not both, a valid regex and a known program, each at its line', () => {
    expect(problems('  - log: { program: daemon }\n')).toEqual([
      '3:10 steps[0].log.contains: missing what to look for: contains (text) or matches (a regular expression)',
    ]);
    expect(problems('  - log: { program: daemon, contains: a, matches: b }\n')[0]).toMatch(
      /^3:\d+ steps\[0\]\.log\.matches: give either contains or matches, not both/,
    );
    expect(problems('  - log:\n      program: daemon\n      matches: "(a"\n')[0]).toMatch(
      /^5:\d+ steps\[0\]\.log\.matches: bad regular expression/,
    );
    expect(problems('  - log: { program: deamon, contains: x }\n')[0]).toMatch(
      /^3:\d+ steps\[0\]\.log\.program: "deamon" is not one of: daemon, wallet \(did you mean "daemon"\?\)/,
    );
  });

  it('takes no expect_error (it answers no RPC error)', () => {
    expect(problems('  - log: { program: daemon, contains: x }\n    expect_error: {}\n')[0]).toMatch(
      /a log step answers no RPC error to expect/,
    );
  });
});

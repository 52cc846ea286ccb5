// `expect` holds on whatever a step answers, whatever its kind (a wait's last answer, the height a
// mine reached), never silently ignored; `expect_error` is refused where no RPC error can come.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../harness/scenario/parse.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { ScenarioError } from '../../harness/scenario/types.js';
import { cleanup, tempDir } from '../helpers/sim.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('saltnet-step-expect-');
});
afterAll(() => cleanup(dir));

describe('expect on steps that are not calls', () => {
  it('fails a wait whose last answer does not meet expect, and passes one that does', async () => {
    const write = (name: string, text: string): string => {
      const f = join(dir, name);
      writeFileSync(f, text);
      return f;
    };
    const steps = (want: string) => `requires: { height: 30 }
steps:
  - name: wait for the height
    wait:
      call: { path: /get_height }
      until: { result.status: OK }
      seconds: 10
    expect:
      result.height: ${want}
  - name: mine one
    mine: 1
    expect:
      result.height: { gte: 31 }
`;
    const bad = write('bad.yaml', `name: expect on a wait, false\n${steps('{ gt: 100000 }')}`);
    const good = write('good.yaml', `name: expect on a wait, true\n${steps('{ gte: 30 }')}`);
    const results = await runFiles([bad, good], {
      backend: 'sim',
      isolation: 'shared',
      workers: 1,
      bail: false,
      artifactsRoot: join(dir, 'arts'),
      log: () => undefined,
      daemonEnv: { SALTNET_SIM_HASHRATE: '250000' },
    });
    const byName = new Map(results.map((r) => [r.name, r]));
    expect(byName.get('expect on a wait, true')?.status).toBe('passed');
    const r = byName.get('expect on a wait, false')!;
    expect(r.status).toBe('failed');
    expect(r.steps[0]?.status).toBe('failed');
    expect(r.failure?.message).toMatch(/result\.height/);
    expect(r.failure?.pos?.line).toBe(4);
  }, 120_000);
});

describe('expect_error where no RPC error can come', () => {
  it('is refused with the file, line and what to write instead', () => {
    const text =
      'name: x\nsteps:\n  - mine: 1\n    expect_error: { code: -1 }\n  - wait: { call: { path: /get_height }, until: { result.status: OK }, seconds: 1 }\n    expect_error: { code: -1 }\n';
    let problems: string[] = [];
    try {
      parseScenario(text, 'x.yaml');
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      problems = e.problems.map((p) => `${p.pos.line}:${p.pos.col} ${p.path}: ${p.message} (${p.expected})`);
    }
    expect(problems).toEqual([
      '4:5 steps[0].expect_error: a mine step answers no RPC error to expect (expect_error only on call or a wallet method)',
      '6:5 steps[1].expect_error: a wait step answers no RPC error to expect (a wait ends when its until holds; an error answer keeps it waiting) (expect_error only on call or a wallet method)',
    ]);
  });
});

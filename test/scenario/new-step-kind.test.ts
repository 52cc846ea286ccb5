// A new step kind is one entry: this file defines a made-up kind, `mine_pair: N` (mine N pairs of
// blocks), with defineStep — its schema, how its action is built, its rule, how many blocks it mines,
// how it runs, its docs — registers it, and nothing else. The file schema, the JSON Schema, the file
// check (with its line and column), the limit on blocks mined in all, and the runner all know it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../harness/scenario/parse.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { scenarioJsonSchema } from '../../harness/scenario/schema.js';
import { defineStep } from '../../harness/scenario/steps/kind.js';
import { registerStep, unregisterStep } from '../../harness/scenario/steps/registry.js';
import { ruleProblem } from '../../harness/scenario/schema/rule-kit.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const minePair = defineStep<'mine_pair', { kind: 'mine_pair'; pairs: number }>({
  key: 'mine_pair',
  schema: z.int().min(1).describe('pairs of blocks to mine'),
  answersRpc: false,
  build: (v) => ({ kind: 'mine_pair', pairs: v as number }),
  defaultName: (a) => `mine ${a.pairs} pairs`,
  check(ctx, v, path) {
    if (typeof v === 'number' && v % 1 === 0 && v > 1000)
      ruleProblem(ctx, path, 'value', 'at most 1000 pairs', '1 to 1000');
  },
  blocks: (v) => (typeof v === 'number' ? { blocks: 2 * v, path: [] } : undefined),
  async run(ctx, _step, a) {
    const height = await ctx.testnet.mine({ blocks: 2 * a.pairs });
    return { request: { mine_pair: a.pairs }, response: { result: { height } } };
  },
  docs: { note: 'Mines pairs of blocks.' },
});

const FILE = 'name: pairs\nrequires: { height: 30 }\nsteps:\n  - mine_pair: 2\n    save: { h: result.height }\n';

describe('a made-up step kind, registered as one entry', () => {
  it('is an unknown step until it is registered', () => {
    expect(() => parseScenario(FILE, 'p.yaml')).toThrow(/mine_pair/);
  });

  describe('once registered', () => {
    let dir: string;
    beforeAll(() => {
      registerStep(minePair);
      dir = tempDir('saltnet-step-kind-');
    });
    afterAll(() => {
      unregisterStep('mine_pair');
      cleanup(dir);
    });

    it('parses, with its default name, and is in the JSON Schema', () => {
      const s = parseScenario(FILE, 'p.yaml');
      expect(s.steps[0]).toMatchObject({ name: 'mine 2 pairs', action: { kind: 'mine_pair', pairs: 2 } });
      expect(JSON.stringify(scenarioJsonSchema())).toContain('pairs of blocks to mine');
    });

    it('a bad value, its own rule and the blocks it mines in all are checked at their line', () => {
      const bad = (v: string): string => {
        try {
          parseScenario(`name: x\nsteps:\n  - mine_pair: ${v}\n`, 'b.yaml');
          return 'parsed';
        } catch (e) {
          return (e as Error).message;
        }
      };
      expect(bad('0')).toMatch(/^b\.yaml:3:16: steps\[0\]\.mine_pair: /);
      expect(bad('1001')).toMatch(/b\.yaml:3:16: steps\[0\]\.mine_pair: at most 1000 pairs/);
      // 2 × 900 blocks a step, 100 such steps: past the 100000 blocks a scenario may mine in all
      const many = Array.from({ length: 60 }, () => '  - mine_pair: 900\n').join('');
      expect(() => parseScenario(`name: x\nsteps:\n${many}`, 'm.yaml')).toThrow(/mine up to 100800 blocks/);
    });

    it('runs in a scenario on the simulator', async () => {
      const f = join(dir, 'pairs.yaml');
      writeFileSync(f, `${FILE}  - call: { path: /get_height }\n    expect: { result.height: "\${h}" }\n`);
      const [r] = await runFiles([f], {
        backend: 'sim',
        isolation: 'fresh',
        workers: 1,
        bail: false,
        artifactsRoot: join(dir, 'artifacts'),
        daemonEnv: { SALTNET_SIM_HASHRATE: '250000' },
        log: () => undefined,
      });
      expect(r!.status, r!.failure?.message).toBe('passed');
      expect(r!.steps[0]).toMatchObject({ name: 'mine 2 pairs', status: 'passed' });
    });
  });
});

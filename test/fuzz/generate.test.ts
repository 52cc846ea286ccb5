// The generator: the same seed draws the same program, byte for byte; every program drawn is a scenario file the
// parser accepts (placeholders, saved values, limits), for many seeds; a shorter program stays valid (prune).
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../harness/scenario/parse.js';
import {
  generateProgram,
  programYaml,
  prune,
  savedNames,
  usedNames,
  withInvariants,
} from '../../harness/fuzz/program.js';

describe('generateProgram', () => {
  it('the same seed gives byte-identical YAML; another seed another program', () => {
    const a = programYaml(generateProgram(7, { steps: 20 }), ['seed 7']);
    const b = programYaml(generateProgram(7, { steps: 20 }), ['seed 7']);
    expect(a).toBe(b);
    expect(programYaml(generateProgram(8, { steps: 20 }), ['seed 7'])).not.toBe(a);
  });

  it('has exactly the steps asked for', () => {
    for (const n of [1, 5, 15, 40]) expect(generateProgram(3, { steps: n }).steps).toHaveLength(n);
  });

  it('every program of 100 seeds parses and validates as a scenario file, with and without the invariant steps', () => {
    for (let seed = 1; seed <= 100; seed++) {
      for (const invariants of [false, true]) {
        const p = generateProgram(seed, { steps: 25 });
        const yaml = programYaml(invariants ? withInvariants(p) : p, [`seed ${seed}`]);
        try {
          const s = parseScenario(yaml, `seed-${seed}.yaml`);
          expect(s.steps.length).toBeGreaterThan(0);
        } catch (err) {
          throw new Error(`seed ${seed}${invariants ? ' (invariants)' : ''}: ${String(err)}\n${yaml}`, { cause: err });
        }
      }
    }
  });

  it('draws programs of two and three nodes with partitions, each side mining a different number of blocks', () => {
    const multi = Array.from({ length: 100 }, (_, i) => generateProgram(i + 1, { steps: 25 })).filter((p) => p.nodes);
    expect(multi.length).toBeGreaterThan(5);
    expect(new Set(multi.map((p) => p.nodes))).toEqual(new Set([2, 3]));
    const episodes = multi.flatMap((p) =>
      p.steps.flatMap((s, i) => ('partition' in s ? [p.steps.slice(i - 1, i + 5)] : [])),
    );
    // An episode drawn near the end is cut where the program ends.
    const whole = episodes.filter((e) => e.length === 6);
    expect(whole.length).toBeGreaterThan(0);
    for (const [flush, , a, b, heal, sync] of whole) {
      expect(flush).toEqual({ mine: 2 });
      expect((a!.mine as { blocks: number }).blocks).not.toBe((b!.mine as { blocks: number }).blocks);
      expect([heal, sync]).toEqual([{ heal: {} }, { sync: {} }]);
    }
    // One-node programs never partition.
    const single = Array.from({ length: 30 }, (_, i) => generateProgram(i + 1, { steps: 25 })).filter((p) => !p.nodes);
    expect(single.some((p) => p.steps.some((s) => 'partition' in s))).toBe(false);
  });

  it('prune keeps every program valid: removing any one step and pruning parses', () => {
    const p = generateProgram(11, { steps: 30 });
    for (let i = 0; i < p.steps.length; i++) {
      const steps = prune(p.steps.filter((_, j) => j !== i));
      const have = new Set<string>();
      for (const s of steps) {
        for (const n of usedNames(s)) expect(have.has(n), `${n} used before it is saved`).toBe(true);
        for (const n of savedNames(s)) have.add(n);
      }
      if (steps.length) parseScenario(programYaml({ ...p, steps }), 'pruned.yaml');
    }
  });
});

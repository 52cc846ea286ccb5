// Backends are data: every place that names or lists backends follows BACKENDS, so a new backend is
// one entry there. These fail when a list is restated somewhere and not updated.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { unlockedAtomic } from '../../harness/config/unlocked.js';
import { scenarioJsonSchema } from '../../harness/scenario/schema.js';
import { amountUnits, AUTO_ORDER, backendChoices, backendNames, BACKENDS } from '../../harness/coin/backends.js';
import { resolveBackend } from '../../harness/testnet/programs/binaries.js';
import { CLI } from '../cli/helpers.js';

describe('backends as data', () => {
  it('each entry is named by its key and carries its coin, install hint and programs', () => {
    for (const [key, spec] of Object.entries(BACKENDS)) {
      expect(spec.name).toBe(key);
      expect(amountUnits().get(spec.coin.unit)).toBe(spec.coin.decimals);
      expect(spec.installHint.length).toBeGreaterThan(10);
      expect(Object.values(spec.binaries)).toHaveLength(3);
      if (spec.tokenHeight !== undefined) expect(spec.tokenCost).toBeGreaterThan(0n);
    }
    expect(backendChoices()).toEqual(['auto', ...Object.keys(BACKENDS)]);
    expect(AUTO_ORDER.every((n) => backendNames().includes(n))).toBe(true);
  });

  it("the scenario language's backends: list is the table's", () => {
    const props = (scenarioJsonSchema().properties ?? {}) as Record<string, { items?: { enum?: string[] } }>;
    expect(props.backends?.items?.enum).toEqual(backendNames());
  });

  it("--unlocked takes each backend's own coin and refuses another's", () => {
    for (const spec of Object.values(BACKENDS)) {
      expect(unlockedAtomic(`2 ${spec.coin.unit}`, spec.name)).toBe(2n * 10n ** BigInt(spec.coin.decimals));
      const other = Object.values(BACKENDS).find((o) => o.coin.unit !== spec.coin.unit)!;
      expect(() => unlockedAtomic(`2 ${other.coin.unit}`, spec.name)).toThrow(
        `the ${spec.name} backend's coin is ${spec.coin.unit}`,
      );
    }
  });

  it('a bundled backend needs no binaries on PATH; the others say how to get theirs', () => {
    for (const spec of Object.values(BACKENDS)) {
      if (spec.bundledBinDir) {
        expect(resolveBackend(spec.name).paths.daemon.startsWith(spec.bundledBinDir)).toBe(true);
        // A folder given for it is not silently dropped: the line saying which programs run says it is not used.
        const given = resolveBackend(spec.name, '/opt/salvium');
        expect(given.paths.daemon.startsWith(spec.bundledBinDir)).toBe(true);
        expect(given.reason).toBe(
          `${spec.name} backend (${spec.description}); --bin-dir /opt/salvium is not used: it ships with saltnet`,
        );
        continue;
      }
      const saved = { PATH: process.env.PATH, SALTNET_BIN_DIR: process.env.SALTNET_BIN_DIR };
      process.env.PATH = '/nonexistent';
      delete process.env.SALTNET_BIN_DIR;
      try {
        expect(() => resolveBackend(spec.name)).toThrow(spec.installHint);
      } finally {
        for (const [k, v] of Object.entries(saved))
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
      }
    }
  });

  it('the commands offer every backend', async () => {
    for (const command of ['up', 'run', 'diff']) {
      const help = (await execa('node', [CLI, command, '--help'], { reject: false })).stdout.replace(/\s+/g, ' ');
      for (const name of backendNames()) expect(help, `saltnet ${command} --help`).toContain(`"${name}"`);
    }
  });
});

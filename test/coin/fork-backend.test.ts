// A backend with a coin of its own is one entry: this file registers a made-up fork of Salvium —
// its programs (the simulator's, for the test), its coin FRK with 6 decimals, its supply and its
// address prefixes — and nothing else, and every place that knows coins follows: the --backend
// choices and the config file, amounts and their did-you-mean, --unlocked, a scenario's assets and
// funding limits, the diff's address rule, and the help texts of the per-backend defaults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParsedOnly, saltnetCli } from '../../harness/cli/program.js';
import { validateConfig } from '../../harness/config/validate.js';
import { configOption } from '../../harness/config/yargs.js';
import { unlockedAtomic } from '../../harness/config/unlocked.js';
import { addressKind } from '../../harness/diff/rules.js';
import { parseScenario } from '../../harness/scenario/parse.js';
import { ScenarioError } from '../../harness/scenario/types.js';
import { amountError, formatAmount, parseAmount } from '../../harness/coin/amounts.js';
import {
  backendChoices,
  BACKENDS,
  registerBackend,
  unregisterBackend,
  type BackendSpec,
} from '../../harness/coin/backends.js';
import { resolveBackend } from '../../harness/testnet/programs/binaries.js';
import { encode } from '../../harness/sim/crypto/base58.js';
import { encodeVarint } from '../../harness/sim/crypto/varint.js';
import { amountPattern, assetPattern } from '../../harness/scenario/schema/vocabulary.js';

const FRK_TESTNET_CN = 0x2a1f0;
const FORK: BackendSpec = {
  ...BACKENDS.sim,
  name: 'frk',
  description: 'a made-up fork',
  difficulty: 7,
  coin: {
    chain: 'forkium',
    unit: 'FRK',
    decimals: 6,
    supply: 21_000_000n * 1_000_000n,
    addressPrefixes: [{ network: 'testnet', family: 'cn', type: 'standard', prefix: FRK_TESTNET_CN }],
  },
  fundAsset: 'FRK',
};

beforeAll(() => registerBackend(FORK));
afterAll(() => unregisterBackend('frk'));

describe('a made-up fork backend, registered as one entry', () => {
  it('is a --backend choice of every command and of the config file, and resolves', async () => {
    expect(backendChoices()).toContain('frk');
    await expect(
      (async () => saltnetCli(['up', '--backend', 'frk'], { parseOnly: true }).parseAsync())(),
    ).rejects.toBeInstanceOf(ParsedOnly);
    expect(validateConfig({ backend: 'frk' }).problems).toEqual([]);
    expect(validateConfig({ backend: 'frkk' }).problems[0]?.message).toMatch(/frk/);
    expect(resolveBackend('frk').spec.coin.unit).toBe('FRK');
  });

  it('writes and reads amounts in its coin, with its decimals, and suggests its unit', () => {
    expect(parseAmount('2.5 FRK')).toBe(2_500_000n);
    expect(formatAmount(2_500_000n, 'FRK')).toBe('2.500000 FRK');
    expect(amountError('1.0000001 FRK')).toBe('FRK has 6 decimals, this has 7');
    expect(amountError('1 frk')).toBe('units are case-sensitive: write FRK');
    expect(amountError('1 FRX')).toMatch(/unknown unit FRX \(did you mean FRK\?\)/);
  });

  it("--unlocked takes its coin and refuses another chain's", () => {
    expect(unlockedAtomic('2 FRK', 'frk')).toBe(2_000_000n);
    expect(unlockedAtomic(2, 'frk')).toBe(2_000_000n);
    expect(() => unlockedAtomic('2 SAL1', 'frk')).toThrow("the frk backend's coin is FRK");
  });

  it('a scenario for it names its coin as an asset; funds above its supply are refused', () => {
    const s = parseScenario(
      'name: fork\nbackends: [frk]\nrequires: { unlocked: { FRK: 3 FRK } }\nsteps:\n  - mine: 1\n',
      'fork.yaml',
    );
    expect(s.backends).toEqual(['frk']);
    let err: unknown;
    try {
      parseScenario('name: fork\nrequires: { unlocked: { FRK: 30000000 FRK } }\nsteps:\n  - mine: 1\n', 'f.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    expect((err as Error).message).toMatch(/the whole supply is 21000000 FRK/);
  });

  it('the editor schema takes its unit as an asset and in amounts, with its decimals', () => {
    const assets = new RegExp(assetPattern());
    const amounts = new RegExp(amountPattern());
    expect(['FRK', 'SAL1', 'salABCD'].map((a) => assets.test(a))).toEqual([true, true, true]);
    expect(['1.123456 FRK', '1.1234567 FRK', '1.5 SAL1'].map((a) => amounts.test(a))).toEqual([true, false, true]);
  });

  it("the diff's address rule knows its addresses", () => {
    const body = new Uint8Array(68).fill(7);
    const address = encode(new Uint8Array([...encodeVarint(FRK_TESTNET_CN), ...body]));
    expect(addressKind(address)).toBe('forkium testnet cn standard');
  });

  it('the help of a per-backend default names its own', () => {
    expect(String(configOption('difficulty').describe)).toMatch(/frk: 7/);
  });
});

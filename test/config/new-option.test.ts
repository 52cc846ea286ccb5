// A new testnet option is one row of KEYS plus the code that uses it. This file adds a made-up row
// (`--wallet-lookahead`, SALTNET_WALLET_LOOKAHEAD, default 2:20) and nothing else, and follows it
// through every layer a real one goes through: the flags of the testnet-starting commands (their
// help text from the row), resolution from flag, environment and default with its source, and the
// TestnetOptions every command and the vitest setup build with testnetOptionsOf.
import yargs from 'yargs';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { testnetKeys, testnetOptions } from '../../harness/cli/testnet-options.js';
import { resolveConfig } from '../../harness/config/resolve.js';
import { KEYS, type ConfigKey, type KeySpec } from '../../harness/config/schema.js';
import { testnetOptionsOf } from '../../harness/config/testnet.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const MADE_UP: KeySpec = {
  key: 'walletLookahead' as ConfigKey,
  testnet: 'any',
  schema: z.string().regex(/^\d+:\d+$/),
  expected: 'major:minor, e.g. 2:20',
  flag: 'wallet-lookahead',
  env: 'SALTNET_WALLET_LOOKAHEAD',
  default: '2:20',
  describe: 'subaddress lookahead of the wallets saltnet creates',
};
const keys = [...KEYS, MADE_UP];

describe('a made-up testnet option, added as one row', () => {
  it('is a flag of run, diff, cache and up alike, described from its row', async () => {
    for (const scope of ['any', 'chain', 'up'] as const)
      expect(testnetKeys(scope, [], keys).map((k) => k.key)).toContain('walletLookahead');
    const y = testnetOptions(yargs(['--wallet-lookahead', '3:30']), 'any', [], keys);
    expect(((await y.parseAsync()) as Record<string, unknown>).walletLookahead).toBe('3:30');
    const help = await testnetOptions(yargs([]), 'any', [], keys).getHelp();
    expect(help).toContain('--wallet-lookahead');
    expect(help).toMatch(/or\s+SALTNET_WALLET_LOOKAHEAD/);
  });

  it('resolves from the flag, the environment or its default, each with its source', async () => {
    const cwd = tempDir('saltnet-new-option-');
    try {
      const env = { SALTNET_WALLET_LOOKAHEAD: '4:40' };
      const flag = await resolveConfig({ cwd, env, argv: { walletLookahead: '3:30' }, keys });
      expect([(flag.values as any).walletLookahead, flag.sources['walletLookahead' as ConfigKey]]).toEqual([
        '3:30',
        { kind: 'flag', name: '--wallet-lookahead' },
      ]);
      const fromEnv = await resolveConfig({ cwd, env, keys });
      expect((fromEnv.values as any).walletLookahead).toBe('4:40');
      const dflt = await resolveConfig({ cwd, env: {}, keys });
      expect((dflt.values as any).walletLookahead).toBe('2:20');
    } finally {
      cleanup(cwd);
    }
  });

  it('reaches the TestnetOptions every testnet-starting command and the vitest setup build', () => {
    const options = testnetOptionsOf({ backend: 'sim', walletLookahead: '3:30' }, {}, keys);
    expect(options).toMatchObject({ backend: 'sim', walletLookahead: '3:30' });
    // given in code (the vitest setup's options, the library's) it wins over the configured value
    expect(testnetOptionsOf({ walletLookahead: '3:30' }, { walletLookahead: '5:50' } as never, keys)).toMatchObject({
      walletLookahead: '5:50',
    });
  });
});

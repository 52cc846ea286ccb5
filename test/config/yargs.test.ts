import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { camel, CONFIG_FLAGS, CONFIG_OPTION, configOption, givenFlags } from '../../harness/config/yargs.js';
import { KEYS } from '../../harness/config/schema.js';

/** A command declared the way the config wants it: no yargs defaults for keys the config can set. */
async function parse(args: string[], withDefault = false): Promise<Record<string, unknown>> {
  return (await yargs(args)
    .option('config', CONFIG_OPTION)
    .option('backend', { choices: ['auto', 'salvium', 'sim', 'monero'], ...(withDefault ? { default: 'auto' } : {}) })
    .option('bin-dir', { type: 'string' })
    .option('workers', { type: 'number' })
    .option('snapshots', { type: 'boolean' })
    .option('json', { type: 'boolean', default: false })
    .strict()
    .parseAsync()) as Record<string, unknown>;
}

describe('givenFlags: what the user actually passed', () => {
  it('keeps the config flags that were given, camelCase, and nothing else', async () => {
    const argv = await parse(['--bin-dir', '/b', '--workers', '3', '--config', 'x.yaml', '--json']);
    expect(givenFlags(argv)).toEqual({ binDir: '/b', workers: 3, config: 'x.yaml' });
    expect(givenFlags(await parse([]))).toEqual({});
  });

  it('--no-snapshots is given (false), not missing', async () => {
    expect(givenFlags(await parse(['--no-snapshots']))).toEqual({ snapshots: false });
  });

  it('a yargs default looks given; with the raw arguments it is dropped', async () => {
    const argv = await parse(['--workers=2'], true);
    expect(givenFlags(argv)).toEqual({ backend: 'auto', workers: 2 });
    expect(givenFlags(argv, ['--workers=2'])).toEqual({ workers: 2 });
    const typed = await parse(['--backend', 'sim', '--no-snapshots'], true);
    expect(givenFlags(typed, ['--backend', 'sim', '--no-snapshots'])).toEqual({ backend: 'sim', snapshots: false });
  });

  it('positional files count when there are some', () => {
    expect(givenFlags({ files: ['a.yaml'] }, [])).toEqual({ files: ['a.yaml'] });
    expect(givenFlags({ files: [] })).toEqual({});
  });

  it('knows every flag of the key table', () => {
    expect(CONFIG_FLAGS).toEqual(
      expect.arrayContaining([
        'config',
        'backend',
        'binDir',
        'cacheDir',
        'timeoutFactor',
        'walletCreation',
        'workers',
        'files',
        'snapshots',
      ]),
    );
  });
});

describe('configOption: every flag of a config key is declared from its row in KEYS', () => {
  const flagged = KEYS.filter((k) => k.flag && !k.positional);
  const cli = async (args: string[]): Promise<Record<string, unknown>> => {
    let y = yargs(args)
      .exitProcess(false)
      .fail((msg, err) => {
        throw err ?? new Error(msg);
      });
    for (const k of flagged) y = y.option(k.flag!, configOption(k.key));
    return (await y.strict().parseAsync()) as Record<string, unknown>;
  };

  it('fills in the defaults of KEYS and nothing else', async () => {
    const argv = await cli([]);
    for (const k of flagged) {
      const name = camel(k.flag!);
      if (k.default !== undefined && !k.number) expect(argv[name], k.key).toEqual(k.default);
      else expect(argv[name], k.key).toBeUndefined();
    }
  });

  it('refuses what the config file would refuse: a choice outside the enum, a bad number, a bad amount', async () => {
    await expect(cli(['--backend', 'bitcoin'])).rejects.toThrow(/Invalid values[\s\S]*backend/);
    await expect(cli(['--isolation', 'solo'])).rejects.toThrow(/isolation/);
    await expect(cli(['--difficulty', '1e3'])).rejects.toThrow("--difficulty: '1e3' is written with an exponent");
    await expect(cli(['--workers', '0'])).rejects.toThrow('--workers: 0 is too small');
    await expect(cli(['--unlocked', '-1'])).rejects.toThrow("--unlocked: '-1' is below 0");
  });

  it('parses good values as the configuration holds them', async () => {
    const argv = await cli([
      '--difficulty',
      '500',
      '--unlocked',
      '1100 SAL1',
      '--no-snapshots',
      '--login',
      'digest',
      '--timeout-factor',
      '2.5',
    ]);
    expect(argv).toMatchObject({
      difficulty: 500,
      unlocked: '1100 SAL1',
      snapshots: false,
      login: 'digest',
      timeoutFactor: 2.5,
    });
  });

  it('says the environment variable and what unset means in the help text', () => {
    expect(configOption('binDir').describe).toContain('SALTNET_BIN_DIR');
    expect(configOption('binDir').describe).toContain('look on PATH, then the newest release');
    expect(configOption('difficulty', 'own text').describe).toMatch(/^own text/);
  });
});

import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { CONFIG_FLAGS, CONFIG_OPTION, givenFlags } from '../../harness/config/yargs.js';

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
    expect(CONFIG_FLAGS).toEqual(expect.arrayContaining(['config', 'backend', 'binDir', 'cacheDir', 'timeoutFactor', 'walletCreation', 'workers', 'files', 'snapshots']));
  });
});

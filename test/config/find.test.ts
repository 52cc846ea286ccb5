import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../harness/config/errors.js';
import { CONFIG_FILE_NAMES, findConfigFile, searchConfigFile } from '../../harness/config/find.js';
import { problemsOf, project } from './helpers.js';

describe('finding the config file', () => {
  it('finds the nearest file from the working directory upwards', () => {
    const root = project({ 'saltnet.config.yaml': 'backend: sim\n', 'a/b/c/.keep': '' });
    expect(searchConfigFile(join(root, 'a/b/c'))).toBe(join(root, 'saltnet.config.yaml'));
    // a nearer one wins
    writeFileSync(join(root, 'a/saltnet.config.json'), '{}');
    expect(searchConfigFile(join(root, 'a/b/c'))).toBe(join(root, 'a/saltnet.config.json'));
  });

  it.each(CONFIG_FILE_NAMES)('recognizes %s', (name) => {
    const root = project({ [name]: '' });
    expect(searchConfigFile(root)).toBe(join(root, name));
  });

  it('stops at the git root: a config above the repository is not used', () => {
    const outer = project({ 'saltnet.config.yaml': 'backend: sim\n' }, { git: false });
    mkdirSync(join(outer, 'repo/.git'), { recursive: true });
    mkdirSync(join(outer, 'repo/sub'));
    expect(searchConfigFile(join(outer, 'repo/sub'))).toBeUndefined();
    // the git root itself is searched
    writeFileSync(join(outer, 'repo/saltnet.config.yml'), 'backend: sim\n');
    expect(searchConfigFile(join(outer, 'repo/sub'))).toBe(join(outer, 'repo/saltnet.config.yml'));
  });

  it('a .git file (a worktree) marks the git root too', () => {
    const outer = project({ 'saltnet.config.yaml': '' }, { git: false });
    mkdirSync(join(outer, 'wt/sub'), { recursive: true });
    writeFileSync(join(outer, 'wt/.git'), 'gitdir: /elsewhere\n');
    expect(searchConfigFile(join(outer, 'wt/sub'))).toBeUndefined();
  });

  it('two config files in one folder: an error naming both', async () => {
    const root = project({ 'saltnet.config.yaml': '', 'saltnet.config.mjs': 'export default {}\n', sub: '' });
    const problems = await problemsOf(() => searchConfigFile(root));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toContain(join(root, 'saltnet.config.yaml'));
    expect(problems[0]!.message).toContain(join(root, 'saltnet.config.mjs'));
    expect(problems[0]!.message).toMatch(/more than one config file/);
  });

  it('--config beats SALTNET_CONFIG, which beats the search; relative to the working directory', () => {
    const root = project({ 'saltnet.config.yaml': '', 'conf/a.yaml': '', 'conf/b.json': '{}' });
    expect(findConfigFile({ cwd: root })).toEqual({ file: join(root, 'saltnet.config.yaml'), via: 'search' });
    expect(findConfigFile({ cwd: root, env: 'conf/b.json' })).toEqual({
      file: join(root, 'conf/b.json'),
      via: 'env SALTNET_CONFIG',
    });
    expect(findConfigFile({ cwd: root, env: 'conf/b.json', flag: 'conf/a.yaml' })).toEqual({
      file: join(root, 'conf/a.yaml'),
      via: 'flag --config',
    });
  });

  it('an explicit file that does not exist is an error, not a silent fallback to the search', () => {
    const root = project({ 'saltnet.config.yaml': '' });
    expect(() => findConfigFile({ cwd: root, flag: 'nope.yaml' })).toThrow(ConfigError);
    expect(() => findConfigFile({ cwd: root, flag: 'nope.yaml' })).toThrow(
      `flag --config: (file): cannot use ${join(root, 'nope.yaml')} as the config file: no such file`,
    );
    expect(() => findConfigFile({ cwd: root, env: '.git' })).toThrow(/env SALTNET_CONFIG: .*it is not a file/);
  });
});

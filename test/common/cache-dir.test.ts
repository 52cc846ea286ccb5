import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheDir, resolveCacheDir, snapshotsDir } from '../../harness/common/cache-dir.js';
import { cleanup, tempDir } from '../snapshot/helpers.js';

afterEach(cleanup);

describe('cacheDir', () => {
  it('prefers --cache-dir, then SALTNET_CACHE_DIR, then $XDG_CACHE_HOME/saltnet, then ~/.cache/saltnet', () => {
    const t = tempDir('cachedir');
    const env = { SALTNET_CACHE_DIR: join(t, 'env'), XDG_CACHE_HOME: join(t, 'xdg'), HOME: join(t, 'home') };
    expect(resolveCacheDir({ cacheDir: join(t, 'opt'), env })).toBe(join(t, 'opt'));
    expect(resolveCacheDir({ env })).toBe(join(t, 'env'));
    expect(resolveCacheDir({ env: { ...env, SALTNET_CACHE_DIR: '' } })).toBe(join(t, 'xdg', 'saltnet'));
    expect(resolveCacheDir({ env: { HOME: env.HOME } })).toBe(join(t, 'home', '.cache', 'saltnet'));
    // A relative XDG_CACHE_HOME is invalid by the XDG spec and ignored; a relative --cache-dir is resolved.
    expect(resolveCacheDir({ env: { HOME: env.HOME, XDG_CACHE_HOME: 'rel' } })).toBe(
      join(t, 'home', '.cache', 'saltnet'),
    );
    expect(resolveCacheDir({ cacheDir: 'rel/dir', env })).toBe(resolve('rel/dir'));
  });

  it('creates the folder with mode 0700', () => {
    const t = tempDir('cachedir');
    const dir = cacheDir({ env: { XDG_CACHE_HOME: join(t, 'xdg') } });
    expect(dir).toBe(join(t, 'xdg', 'saltnet'));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(cacheDir({ env: { XDG_CACHE_HOME: join(t, 'xdg') } })).toBe(dir); // idempotent
    expect(snapshotsDir(dir)).toBe(join(dir, 'snapshots'));
    expect(existsSync(snapshotsDir(dir))).toBe(false); // made by the store when it first saves
  });
});

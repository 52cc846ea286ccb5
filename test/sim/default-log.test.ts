// Where the simulated wallet programs log without --log-file: the saltnet cache folder's logs/
// ($SALTNET_CACHE_DIR, else an absolute $XDG_CACHE_HOME/saltnet, else ~/.cache/saltnet), never
// beside their launchers in harness/sim/bin/ (saltnet's package: under node_modules in a user's project).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLogDir } from '../../harness/sim/common/default-log.js';
import { cleanup, freePort, SIM_BIN_DIR, spawnSim, startWalletRpc, stopAll, tempDir } from '../helpers/sim.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('saltnet-sim-default-log-');
});
afterAll(async () => {
  await stopAll();
  cleanup(dir);
});

/** No cache folder from the test run's environment: each test says which one applies. */
const NONE = { SALTNET_CACHE_DIR: '', XDG_CACHE_HOME: '' };

describe('the default log folder', () => {
  it('is the saltnet cache folder’s logs/, found as saltnet finds its cache', () => {
    expect(defaultLogDir({ SALTNET_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c/logs');
    expect(defaultLogDir({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/saltnet/logs');
    // a relative XDG_CACHE_HOME is ignored, as the XDG spec says
    expect(defaultLogDir({ XDG_CACHE_HOME: 'rel', HOME: '/h' })).toBe('/h/.cache/saltnet/logs');
    expect(defaultLogDir({ HOME: '/h' })).toBe('/h/.cache/saltnet/logs');
  });
});

describe('a simulated wallet program started by hand without --log-file', () => {
  it('wallet RPC: logs to $SALTNET_CACHE_DIR/logs/salvium-wallet-rpc.log (made 0700), not in the package', async () => {
    const cache = join(dir, 'cache');
    const rpc = await startWalletRpc(['--wallet-dir', join(dir, 'wallets')], await freePort(), {
      env: { ...NONE, SALTNET_CACHE_DIR: cache },
    });
    await rpc.stop();
    const log = join(cache, 'logs', 'salvium-wallet-rpc.log');
    expect(rpc.output()).toContain(`Logging to ${log}\n`);
    expect(readFileSync(log, 'utf8')).toContain('Starting wallet RPC server');
    expect(statSync(join(cache, 'logs')).mode & 0o777).toBe(0o700);
    expect(existsSync(join(SIM_BIN_DIR, 'salvium-wallet-rpc.log'))).toBe(false);
  });

  it('wallet CLI: logs to $XDG_CACHE_HOME/saltnet/logs/salvium-wallet-cli.log, not in the package', async () => {
    const xdg = join(dir, 'xdg');
    const cli = spawnSim('salvium-wallet-cli', ['--testnet', '--daemon-address', `127.0.0.1:${await freePort()}`], {
      env: { ...NONE, XDG_CACHE_HOME: xdg },
      input: '',
    });
    await cli.proc;
    const log = join(xdg, 'saltnet', 'logs', 'salvium-wallet-cli.log');
    expect(cli.output()).toContain(`Logging to ${log}\n`);
    expect(readFileSync(log, 'utf8')).toContain("Salvium 'One'");
    expect(existsSync(join(SIM_BIN_DIR, 'salvium-wallet-cli.log'))).toBe(false);
  });

  it('with neither variable: ~/.cache/saltnet/logs/', async () => {
    const home = join(dir, 'home');
    const cli = spawnSim('salvium-wallet-cli', ['--testnet', '--daemon-address', `127.0.0.1:${await freePort()}`], {
      env: { ...NONE, HOME: home },
      input: '',
    });
    await cli.proc;
    const log = join(home, '.cache', 'saltnet', 'logs', 'salvium-wallet-cli.log');
    expect(cli.output()).toContain(`Logging to ${log}\n`);
    expect(existsSync(log)).toBe(true);
    expect(existsSync(join(SIM_BIN_DIR, 'salvium-wallet-cli.log'))).toBe(false);
  });
});

// The Testnet object over a testnet's running programs: saves, checkpoints and reverts stop and start
// every program together.
import type { Manifest } from '../snapshot/manifest.js';
import { binaryVersion } from './programs/binaries.js';
import { saveChain } from './chain/chain-cache.js';
import { testnetObject, type StateOps } from './testnet-object.js';
import { phase, unresponsive, type Parts, type Run } from './up-phases.js';
import type { SnapshotInfo } from './chain/state-source.js';
import type { Testnet } from './types.js';
import { counted } from '../common/describe.js';

function stateOps(run: Run, p: Parts): StateOps {
  const { daemon, wallets } = p;
  /** Every process stopped (wallets stored first); what did not stop cleanly: the state on disk is whole without. */
  const stopProcesses = async (what: 'all' | 'wallets'): Promise<string[]> => {
    const problems = await wallets.stopAll();
    return what === 'wallets' ? problems : [...problems, ...(await run.nodes.stopAll())];
  };
  const startProcesses = async (what: 'all' | 'wallets'): Promise<void> => {
    if (what === 'all') await run.nodes.startAll();
    await wallets.startAll();
    p.writeLogin();
  };
  /**
   * Stop everything (or only the wallets), do `fn` on the stopped state, start it all again (also when fn fails). `why`
   * goes into the programs' events.
   */
  const whileStopped = async <T>(why: string, fn: () => Promise<T>, what: 'all' | 'wallets' = 'all'): Promise<T> => {
    const was = run.activity;
    run.activity = why;
    try {
      const problems = await stopProcesses(what);
      try {
        // A wallet that was not stored (its program froze, or was killed) would be saved as it was long ago.
        if (problems.length)
          throw new Error(
            `not every program stopped cleanly, so the state on disk may not be whole: ${problems.join('; ')}`,
          );
        return await fn();
      } finally {
        await startProcesses(what);
      }
    } finally {
      run.activity = was;
    }
  };
  const whileStored = async <T>(why: string, fn: () => Promise<T>): Promise<T> => {
    // A wallet that does not answer cannot be stored: refused at once rather than waited for.
    const silent = unresponsive(run, p);
    if (silent.length) throw new Error(`the wallets cannot be stored ${why}: ${silent.join('; ')}`);
    const was = run.activity;
    run.activity = why;
    try {
      const problems = await wallets.storeAll();
      if (problems.length) throw new Error(`not every wallet could be stored ${why}: ${problems.join('; ')}`);
      return await fn();
    } finally {
      run.activity = was;
    }
  };
  const saveState = async (cdir: string, key: string): Promise<Manifest> => {
    // Refused at once when a program does not answer: its wallet cannot be stored, and stopping it would only wait.
    const silent = unresponsive(run, p);
    if (silent.length) throw new Error(`cannot save the state: ${silent.join('; ')}`);
    const height = await daemon.client.height();
    const version = await binaryVersion(run.backend.paths.daemon).catch(() => undefined);
    return whileStopped(`while saving snapshot ${key}`, async () =>
      saveChain(cdir, key, run.workdir, {
        // The difficulty the daemon mined at until now: the prefix's for a state built here.
        be: run.backend,
        ...(version ? { binaryVersion: version } : {}),
        difficulty: daemon.program.current.settings.difficulty,
        height,
        wallets: Object.entries(p.addresses).map(([name, a]) => ({ name, addresses: a })),
        extra: {
          unlocked: `${run.chain.unlocked} ${run.chain.asset}`,
          target: run.chain.height,
          lookahead: run.chain.lookahead,
        },
      }),
    );
  };
  return { whileStopped, whileStored, saveState };
}

/**
 * The testnet over its running programs: `saveBuilt` puts a state built here into the cache, `finish` gives the
 * Testnet.
 */
export function assemble(
  run: Run,
  p: Parts,
): {
  saveBuilt(): Promise<void>;
  setPrefix(prefix: SnapshotInfo['prefix']): void;
  /** The chain built on n0 alone copied to the other nodes (all stopped meanwhile), which then start as a network. */
  network(): Promise<void>;
  finish(height: number): Testnet;
} {
  const ops = stateOps(run, p);
  let snapshot = p.snapshot;
  const saveBuilt = async (): Promise<void> => {
    if ((snapshot.status !== 'built' && snapshot.status !== 'rebuilt') || !snapshot.key || !snapshot.cacheDir) return;
    const { key, cacheDir } = snapshot;
    await phase(run, 'snapshotSave', async () => {
      try {
        const m = await ops.saveState(cacheDir, key);
        run.detail(
          `saltnet: saved snapshot ${key} (${counted(m.files.length, 'file')}, ${(m.files.reduce((n, f) => n + f.size, 0) / 2 ** 20).toFixed(1)} MiB); the next run starts from it`,
        );
      } catch (err) {
        snapshot = { ...snapshot, saveError: err instanceof Error ? err.message : String(err) };
        run.log(`saltnet: could not save snapshot ${key}: ${snapshot.saveError}`);
      }
    });
  };
  const setPrefix = (prefix: SnapshotInfo['prefix']): void => {
    snapshot = { ...snapshot, ...(prefix ? { prefix } : {}) };
  };
  const network = (): Promise<void> =>
    ops.whileStopped('while copying the chain to the other nodes', () => run.nodes.network());
  return { saveBuilt, setPrefix, network, finish: (height) => testnetObject(run, p, ops, height, () => snapshot) };
}

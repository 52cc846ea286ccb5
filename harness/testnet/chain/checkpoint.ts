// Checkpoints inside one testnet (`snapshot:` / `revert:` scenario steps): the state folders of a
// stopped testnet (the wallets, and on a testnet of several nodes every node's data dir) copied to
// <workdir>/checkpoints with the snapshot store (so a copy is complete or absent), and copied back on
// a revert. The caller stops and restarts the processes.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { loadSnapshot, saveSnapshot } from '../../snapshot/store.js';
import { excludeFromSnapshot, stateDirs } from './chain-cache.js';
import { nodeDataDir, nodeProgram } from '../programs/daemon.js';

const CHECKPOINT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function key(name: string): string {
  if (!CHECKPOINT_NAME.test(name))
    throw new Error(`checkpoint name ${JSON.stringify(name)} must be 1-64 letters, digits, - or _`);
  return `cp-${name}`;
}

const checkpointsDir = (workdir: string): string => join(workdir, 'checkpoints');

/**
 * The folders a checkpoint holds, by name: each node's data dir (`daemon`, `daemon-n1`, …; none when `nodes` is 0: a
 * one-node testnet's daemon keeps running, chain-mark.ts) and `wallets`.
 */
function checkpointDirs(workdir: string, nodes: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < nodes; i++) out[nodeProgram(i)] = nodeDataDir(workdir, i);
  return { ...out, wallets: stateDirs(workdir).wallets };
}

/**
 * Copy the (stopped) testnet's wallets folder and its first `nodes` data dirs under `name`, replacing an earlier
 * checkpoint of that name.
 */
export async function checkpointState(workdir: string, name: string, nodes = 1): Promise<void> {
  await saveSnapshot({
    cacheDir: checkpointsDir(workdir),
    key: key(name),
    sources: Object.entries(checkpointDirs(workdir, nodes)).map(([source, dir]) => ({ name: source, dir })),
    exclude: excludeFromSnapshot,
    manifest: { backend: 'checkpoint', binaries: {}, difficulty: 0, height: 0, wallets: [] },
  });
}

/**
 * Put the checkpoint `name` back in place of the (stopped) testnet's wallets folder and its first `nodes` data dirs; on
 * a failure they stay as they were.
 */
export async function revertState(workdir: string, name: string, nodes = 1): Promise<void> {
  const dirs = checkpointDirs(workdir, nodes);
  const aside = join(workdir, `.reverting-${randomBytes(4).toString('hex')}`);
  const moved: [string, string][] = [];
  try {
    for (const [source, dir] of Object.entries(dirs)) {
      if (!existsSync(dir)) continue;
      const to = `${aside}-${source}`;
      await rename(dir, to);
      moved.push([to, dir]);
    }
    const r = await loadSnapshot({ cacheDir: checkpointsDir(workdir), key: key(name), targets: dirs });
    if (!('manifest' in r))
      throw new Error('corrupt' in r ? `checkpoint ${name} is corrupt: ${r.corrupt}` : `no checkpoint named ${name}`);
  } catch (err) {
    for (const [from, to] of moved) {
      await rm(to, { recursive: true, force: true });
      await rename(from, to);
    }
    throw err;
  }
  for (const [from] of moved) await rm(from, { recursive: true, force: true });
}

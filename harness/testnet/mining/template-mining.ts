// Mining with saltnet's own RandomX miner: a block template from the daemon (get_block_template, paid to the CN
// address below the Carrot height and the Carrot address from it), a nonce found in this process (randomx/miner.ts),
// the block handed back (submit_block). The daemon checks every block at exactly its fixed difficulty, as it checks
// its own miner's, and needs no dataset of its own: it verifies in light mode. Blocks come one at a time, so mining
// ends exactly at the target, with no overshoot to pop.
import type { DaemonClient } from '../../rpc/daemon.js';
import { RpcError } from '../../rpc/errors.js';
import { minerFor, nonceOffset, type RandomxMiner } from '../../randomx/miner.js';
import { MiningError, miningAddress, settleRelay, type BlockHasher, type MineOptions } from './job.js';

/** Blocks the daemon may refuse in a row (a template gone stale between two polls) before mining fails. */
const MAX_REFUSED = 3;

/** RandomX's seed changes every 2048 blocks, 64 blocks late: up to this height it is the genesis block's id. */
const FIRST_SEED_CHANGE = 2048 + 64;

/**
 * Hold the dataset of the seed this daemon's next blocks are mined with: loaded from the cache folder, or built there
 * in the background, while the testnet runs. Undefined past the first seed change (the seed then comes with the first
 * block template).
 */
export async function holdDataset(
  daemon: DaemonClient,
  hasher: BlockHasher,
  threads: number,
): Promise<{ miner: RandomxMiner; release: () => void } | undefined> {
  if ((await daemon.height()) >= FIRST_SEED_CHANGE) return undefined;
  const genesis = await daemon.call<{ block_header: { hash: string } }>('get_block_header_by_height', { height: 0 });
  const miner = minerFor(hasher.lib, { dir: hasher.dir, seed: genesis.block_header.hash, threads });
  return { miner, release: miner.hold() };
}

/**
 * Have the daemon make its RandomX cache for the chain's seed now (`calc_pow` of a template): it verifies each block
 * saltnet submits in light mode, and builds that cache (256 MiB, about a second of one core) at the first one. Done
 * as the testnet comes up, the first block costs its hashes only. A daemon that cannot is left to do it then.
 */
export async function warmVerifier(daemon: DaemonClient, address: string): Promise<void> {
  const tpl = await daemon.blockTemplate(address);
  await daemon.call('calc_pow', {
    major_version: Buffer.from(tpl.blocktemplate_blob.slice(0, 2), 'hex')[0],
    height: tpl.height,
    block_blob: tpl.blockhashing_blob,
    seed_hash: tpl.seed_hash ?? '',
  });
}

export async function mineWithTemplates(
  daemon: DaemonClient,
  target: number,
  hasher: BlockHasher,
  o: MineOptions,
): Promise<{ height: number; restarts: number; ms: number }> {
  const t0 = Date.now();
  const deadline = t0 + o.timeoutMs;
  const threads = o.threads ?? 1;
  let h = await daemon.height();
  if (h < target && o.spec.relaySettleMs > 0) await settleRelay(daemon, o.spec.relaySettleMs);
  let refused = 0;
  let waitSaid = false;
  while (h < target) {
    o.signal?.throwIfAborted();
    if (Date.now() > deadline)
      throw new MiningError(
        `mining to height ${target} timed out at height ${h} after ${Math.round((Date.now() - t0) / 1000)}s`,
      );
    const tpl = await daemon.blockTemplate(miningAddress(o.spec, o.addresses, h));
    if (!tpl.seed_hash) throw new MiningError('the daemon answers get_block_template without a seed_hash: no RandomX');
    const miner = minerFor(hasher.lib, { dir: hasher.dir, seed: tpl.seed_hash, threads });
    const difficulty = BigInt(tpl.wide_difficulty ?? tpl.difficulty);
    const mode = miner.modeFor(target - h, Number(difficulty), hasher.choice);
    if (mode === 'full' && miner.state.kind !== 'ready' && !waitSaid) {
      waitSaid = true;
      o.onDataset?.(miner.state, miner);
    }
    const blob = Buffer.from(tpl.blockhashing_blob, 'hex');
    const at = nonceOffset(blob);
    const release = miner.hold();
    const found = await miner
      .search({
        blob,
        nonceOffset: at,
        difficulty,
        mode,
        ...(o.signal ? { signal: o.signal } : {}),
        // Another node's block (a testnet of several) makes this template stale.
        stale: async () => (await daemon.height()) !== tpl.height,
      })
      .finally(release);
    if ('stale' in found) {
      h = await daemon.height();
      continue;
    }
    const block = Buffer.from(tpl.blocktemplate_blob, 'hex');
    block.writeUInt32LE(found.nonce, at);
    try {
      await daemon.submitBlock(block.toString('hex'));
      refused = 0;
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      blob.writeUInt32LE(found.nonce, at);
      if (mode === 'full' && !(await miner.lightHash(blob)).equals(found.hash)) {
        // The dataset on disk hashes differently from the cache it comes from: it is damaged. Built again.
        o.warn?.(
          `saltnet: the RandomX dataset in ${hasher.dir} gave a hash the daemon refused; it is removed and built again`,
        );
        miner.discardDataset();
        continue;
      }
      if (++refused >= MAX_REFUSED)
        throw new MiningError(
          `the daemon refused ${refused} blocks in a row at height ${h} (${err.message}); see its log`,
        );
    }
    h = await daemon.height();
    o.progress?.update(h);
  }
  o.progress?.done(h);
  return { height: h, restarts: 0, ms: Date.now() - t0 };
}

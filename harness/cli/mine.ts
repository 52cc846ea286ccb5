// `saltnet mine <blocks> | --to <height>`: mine on the running testnet (address switch handled).
import type { CommandModule } from 'yargs';
import { NUMBER_RULES, numberOption } from '../config/numbers.js';
import { MAX_HEIGHT } from '../limits.js';
import { createDaemonClient } from '../rpc/daemon.js';
import { backendSpec } from '../coin/backends.js';
import { mineTo } from '../testnet/mining/mining.js';
import { createProgress, progressMode } from '../testnet/mining/progress.js';
import { scaled } from '../common/timeouts.js';
import { pickRun, runInfo } from './runs.js';
import { operate } from '../control/client.js';
import { createWalletClient } from '../rpc/wallet.js';
import { syncWallets } from '../testnet/mining/sync.js';
import { counted } from '../common/describe.js';

interface MineArgs {
  blocks?: number;
  to?: number;
  run?: string;
  node?: string;
}

export const mineCommand: CommandModule<object, MineArgs> = {
  command: 'mine [blocks]',
  describe: 'mine blocks on the running testnet',
  builder: (y) =>
    y
      .positional('blocks', numberOption('blocks', NUMBER_RULES.blocks, 'how many blocks', true))
      .option('to', numberOption('to', NUMBER_RULES.height, 'mine until this height'))
      .option('run', { type: 'string', describe: 'which run, when several are up' })
      .option('node', {
        type: 'string',
        describe: 'the node that mines (saltnet up --nodes N: n0 to n<N-1>; default n0)',
      })
      .check((a) => {
        if (a.blocks === undefined && a.to === undefined)
          throw new Error('say how far: `saltnet mine 10` or `saltnet mine --to 1300`');
        if (a.blocks !== undefined && a.to !== undefined)
          throw new Error('say how far once: `saltnet mine 10` or `saltnet mine --to 1300`, not both');
        return true;
      }),
  handler: (argv) => mine(argv),
};

async function mine(argv: MineArgs): Promise<void> {
  const r = pickRun(argv.run);
  const info = runInfo(r);
  if (!info.daemon || !info.addresses || !info.backend)
    throw new Error(`run ${r.runId} is still starting; try again when \`saltnet up\` says it is up`);
  const node = info.nodes?.find((n) => n.name === (argv.node ?? 'n0'));
  if (argv.node !== undefined && !node)
    throw new Error(
      `no node named ${argv.node}: run ${r.runId} has ${(info.nodes ?? [{ name: 'n0' }]).map((n) => n.name).join(', ')}`,
    );
  // The testnet's own process mines and then syncs every wallet it owns: asked first, so that a daemon that does not
  // answer is reported at once (the testnet knows it) instead of a wait on it from here.
  if (info.control) {
    const how = argv.to !== undefined ? { to: argv.to } : { blocks: argv.blocks ?? 1 };
    const res = await operate(info.control, 'mine', { ...how, ...(argv.node ? { node: argv.node } : {}) });
    process.stdout.write(res.already ? `already at height ${res.height}\n` : `height ${res.height}\n`);
    return;
  }
  const daemon = createDaemonClient(node?.url ?? info.daemon);
  let target: number;
  try {
    const start = await daemon.height();
    target = argv.to ?? start + (argv.blocks ?? 1);
    if (target > MAX_HEIGHT)
      throw new Error(
        `${argv.to !== undefined ? `mining to height ${argv.to}` : `mining ${counted(argv.blocks ?? 1, 'block')} from height ${start}`} would pass height ${MAX_HEIGHT}, the highest saltnet mines to`,
      );
    if (target <= start) {
      process.stdout.write(`already at height ${start}\n`);
      return;
    }
    // A run without a control endpoint (an older saltnet) is mined from here, and its main wallet synced.
    const res = await mineTo(daemon, target, {
      spec: backendSpec(info.backend),
      // the blocks go to the miner wallet, so the main wallet's balance moves only with its own transactions
      addresses: info.minerAddresses ?? info.addresses,
      timeoutMs: scaled(3_600_000),
      ...(info.mining ? { threads: info.mining.threads } : {}),
      progress: createProgress('mining', start, target, progressMode(), (l) => void process.stderr.write(`${l}\n`)),
    });
    if (info.wallet) {
      const wallet = createWalletClient(info.wallet);
      await syncWallets(res.height, [{ name: 'main', client: wallet }], { timeoutMs: scaled(120_000) }).finally(() =>
        wallet.close(),
      );
    }
    process.stdout.write(`height ${res.height}\n`);
  } finally {
    await daemon.close();
  }
}

// `saltnet fund <address> <amount> [--asset TICKER]`: the faucet. The running testnet pays any address
// of its chain (an app's own wallet) from `main` and mines until the receiver can spend it; the amount
// is a number of coins of the asset (SAL1 by default; a token by its asset type, e.g. salTST1).
import type { CommandModule } from 'yargs';
import { requestFund } from '../control/client.js';
import { coinsToAtomic, formatAmountShort } from '../testnet/amounts.js';
import { backendSpec, fundingAsset } from '../testnet/backends.js';
import { pickRun, runInfo } from './runs.js';

interface FundArgs {
  address: string;
  amount: string;
  asset?: string;
  run?: string;
  json: boolean;
}

export const fundCommand: CommandModule<object, FundArgs> = {
  command: 'fund <address> <amount>',
  describe: "pay an address from the testnet's main wallet and mine until it can spend it (a faucet)",
  builder: (y) =>
    y
      .positional('address', {
        type: 'string',
        demandOption: true,
        describe: 'any address of the chain (CN or Carrot)',
      })
      .positional('amount', {
        type: 'string',
        demandOption: true,
        describe: "coins of the asset, e.g. 100 or 0.5 (exact: at most the coin's decimals)",
      })
      .option('asset', { type: 'string', describe: "the asset (default SAL1), e.g. a token's salTST1" })
      .option('run', { type: 'string', describe: 'which run, when several are up' })
      .option('json', { type: 'boolean', default: false, describe: 'print the result as one JSON line' }),
  handler: (argv) => fund(argv),
};

async function fund(argv: FundArgs): Promise<void> {
  const r = pickRun(argv.run);
  const info = runInfo(r);
  if (!info.control || !info.backend)
    throw new Error(
      `run ${r.runId} has no control endpoint (it is still starting, or an older saltnet started it); try again when \`saltnet up\` says it is up`,
    );
  const spec = backendSpec(info.backend);
  const amount = coinsToAtomic(String(argv.amount), spec.coin.decimals, '<amount>');
  if (amount === 0n) throw new Error('<amount>: 0 pays nothing; give more than 0');
  const res = await requestFund(info.control, {
    address: argv.address,
    amount: amount.toString(),
    ...(argv.asset ? { asset: argv.asset } : {}),
  });
  if (argv.json) return void process.stdout.write(`${JSON.stringify(res)}\n`);
  const asset = res.asset ?? fundingAsset(spec);
  process.stdout.write(
    [
      `paid ${formatAmountShort(BigInt(res.amount), asset)} to ${res.address} (${res.kind})`,
      `  tx       ${res.txHashes.join(', ')}`,
      `  block    ${res.block}; spendable now, at height ${res.height} (the receiving wallet sees it after its next refresh)`,
      '',
    ].join('\n'),
  );
}

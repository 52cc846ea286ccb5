// `saltnet fund <address> <amount> [--asset TICKER]`: the faucet. The running testnet pays any address
// of its chain (an app's own wallet) from `main` and mines until the receiver can spend it; the amount
// is a number of coins of the asset (SAL1 by default; a token by its asset type, e.g. salTST1).
// Interrupted (Ctrl-C), it asks the testnet to cancel: a payment not sent yet is given up; one being
// sent is finished by the testnet (a sent transaction cannot be called back), and this says so with
// its transactions.
import type { CommandModule } from 'yargs';
import { randomUUID } from 'node:crypto';
import {
  operate,
  requestCancel,
  type CancelAnswer,
  type ControlInfo,
  type AnswerOf,
  type BodyOf,
} from '../control/client.js';
import { interruptible } from './interruptible.js';
import { coinsToAtomic, formatAmountShort } from '../coin/amounts.js';
import { backendSpec, fundingAsset } from '../coin/backends.js';
import { pickControl } from './runs.js';

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
  const { run, info, control } = pickControl(argv.run);
  if (!info.backend)
    throw new Error(`run ${run.runId} does not say which backend it runs (an older saltnet started it)`);
  const spec = backendSpec(info.backend);
  const amount = coinsToAtomic(String(argv.amount), spec.coin.decimals, '<amount>');
  if (amount === 0n) throw new Error('<amount>: 0 pays nothing; give more than 0');
  const res = await payInterruptibly(
    control,
    { address: argv.address, amount: amount.toString(), ...(argv.asset ? { asset: argv.asset } : {}) },
    argv.json,
  );
  if (!res) return;
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

/**
 * The fund request, with Ctrl-C (SIGTERM, SIGHUP) asking the testnet to cancel it (`/cancel`) and saying what became
 * of it: given up while the payment is not sent yet (nothing paid), or finishing once it is being sent — the testnet
 * then mines until it is spendable, client or not, and this names its transactions. Undefined when interrupted (the
 * exit code is then 130, 143 or 129).
 */
function payInterruptibly(
  control: ControlInfo,
  body: BodyOf<'fund'>,
  json: boolean,
): Promise<AnswerOf<'fund'> | undefined> {
  return interruptible(async (interruption) => {
    const id = randomUUID();
    const giveUp = new AbortController();
    let settled = false;
    let told: Promise<void> | undefined;
    let said = false;
    const tell = (line: string, c: CancelAnswer): void => {
      said = true;
      say(line, c, json);
    };
    const onInterrupt = (): void => {
      told = requestCancel(control, id)
        .then(
          // Unknown once the request was answered: that answer is the outcome.
          (c) => (c.state === 'unknown' && settled ? undefined : tell(outcome(c, body.address), c)),
          (err: unknown) =>
            tell(
              `saltnet: interrupted; the testnet could not be asked to cancel the payment (${err instanceof Error ? err.message : String(err)}): it may still be sent, see the output of saltnet up`,
              { state: 'unknown' },
            ),
        )
        .finally(() => giveUp.abort());
    };
    interruption.addEventListener('abort', onInterrupt, { once: true });
    try {
      const res = await operate(control, 'fund', body, { id, signal: giveUp.signal }).finally(() => (settled = true));
      await told;
      return res;
    } catch (err) {
      if (!told) throw err;
      await told;
      if (!said) throw err;
      return undefined;
    } finally {
      interruption.removeEventListener('abort', onInterrupt);
    }
  }, 'asking the testnet to cancel the payment');
}

/** What became of an interrupted payment, from the testnet's answer to the cancel. */
function outcome(c: CancelAnswer, address: string): string {
  const txs = (c.detail as { txHashes?: string[] } | undefined)?.txHashes ?? [];
  switch (c.state) {
    case 'cancelled':
      return 'saltnet: interrupted before the payment was sent: the testnet gave it up, nothing was paid';
    case 'finishing':
      return `saltnet: interrupted, but the payment was sent already (tx ${txs.join(', ')}): the testnet goes on mining until ${address} can spend it (saltnet up says when)`;
    case 'failed':
      return `saltnet: interrupted; the payment could not be sent (${c.error ?? 'no reason given'}): nothing was paid`;
    default:
      return 'saltnet: interrupted before the testnet began the request: nothing was paid';
  }
}

/** The outcome on stderr, and as a JSON line on stdout with --json. */
function say(line: string, c: CancelAnswer, json: boolean): void {
  process.stderr.write(`${line}\n`);
  if (json) process.stdout.write(`${JSON.stringify({ interrupted: true, ...c })}\n`);
}

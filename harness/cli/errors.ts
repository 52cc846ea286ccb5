// Turn any failure into one message that names the problem and the fix; never a bare stack trace.
import { ProcessExitedError, ReadinessTimeout } from '../process/errors.js';
import { ConnectionError, HttpStatusError, RpcError } from '../rpc/errors.js';
import { MissingBinaryError } from '../testnet/programs/binaries.js';
import { MiningError } from '../testnet/mining/mining.js';
import { WalletCreationError } from '../testnet/programs/wallet-cli.js';

export function explain(err: unknown): string {
  if (err instanceof MissingBinaryError) return `${err.message}\n(or use --backend sim for the built-in simulator)`;
  if (err instanceof ProcessExitedError) {
    const tail = err.tail.join('\n');
    let fix = '';
    if (/invalid password/i.test(tail))
      fix = '\nfix: the wallet password does not open this wallet; use a fresh --workdir';
    else if (/Failed to bind|Address already in use|Failed to add TCP socket/.test(tail))
      fix =
        '\nfix: a port is in use; saltnet picks free ports, so another program took it at the same moment: run again';
    else if (/file not found/i.test(tail))
      fix = '\nfix: the wallet file is missing from the workdir; use a fresh --workdir';
    return `${err.message}${fix}`;
  }
  if (err instanceof ReadinessTimeout) return `${err.message}\nfix: the machine may be slow; try --timeout-factor 3`;
  if (err instanceof WalletCreationError || err instanceof MiningError) return err.message;
  if (err instanceof RpcError || err instanceof HttpStatusError || err instanceof ConnectionError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

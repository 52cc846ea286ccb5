// Generated credentials (wallet passwords, RPC login passwords). Hex only: the programs parse their
// command line with boost, which reads a value starting with "-" as an option, not as the value.
import { randomBytes } from 'node:crypto';

export function generateSecret(bytes = 18): string {
  return randomBytes(bytes).toString('hex');
}

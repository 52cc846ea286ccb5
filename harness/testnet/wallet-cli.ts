// Create a wallet with the wallet CLI, answering its prompts as they appear (never by timing):
// the seed language (by finding "English" in the list it prints), the background-mining question,
// then `exit` at the wallet prompt. Parses the CN and Carrot addresses (Salvium) or the single
// address (Monero).
import { join } from 'node:path';
import type { Supervisor } from '../process/supervisor.js';
import type { ResolvedBackend } from './binaries.js';

export interface CreatedWallet {
  file: string;
  /** The address to mine to first: CN on Salvium, the only one on Monero. */
  cn: string;
  /** Salvium's Carrot address (mining from HF10, every transfer from HF10). */
  carrot?: string;
  seed: string[];
}

export class WalletCreationError extends Error {}

const LANGUAGE_PROMPT = /Enter the number corresponding to the language of your choice: $/;
const MINING_PROMPT = /\(Y\/Yes\/N\/No\): : $/;
const WALLET_PROMPT = /\[wallet [^\]]*\]: $/;

export async function createWalletWithCli(
  sup: Supervisor,
  be: ResolvedBackend,
  o: { file: string; password: string; daemonUrl: string; workdir: string; timeoutMs: number },
): Promise<CreatedWallet> {
  const daemonAddress = o.daemonUrl.replace(/^https?:\/\//, '');
  const proc = sup.start({
    name: 'wallet-cli',
    command: be.paths.walletCli,
    args: ['--testnet', '--generate-new-wallet', o.file, '--password', o.password, '--daemon-address', daemonAddress, '--log-file', join(o.workdir, 'logs', 'wallet-cli-file.log')],
    logFile: join(o.workdir, 'logs', 'wallet-cli.log'),
    secrets: [o.password],
    stdin: 'pipe',
    expectExit: true,
  });
  let text = '';
  proc.onLine((l) => (text += `${l}\n`));
  try {
    const lang = await proc.waitForText(LANGUAGE_PROMPT, { timeoutMs: o.timeoutMs });
    const english = /(\d+) : English/.exec(lang)?.[1] ?? /(\d+) : English/.exec(proc.tail(40).join('\n'))?.[1];
    if (!english) throw new WalletCreationError(`the wallet CLI offered no English seed language:\n${proc.tail(20).join('\n')}`);
    proc.write(`${english}\n`);
    // Next: the background-mining question (local daemon not mining), or straight to the wallet prompt.
    const next = await proc.waitForText(new RegExp(`${MINING_PROMPT.source}|${WALLET_PROMPT.source}|Error: .*`), { timeoutMs: o.timeoutMs });
    if (/Error: /.test(next)) throw new WalletCreationError(`the wallet CLI refused: ${/Error: .*/.exec(next)?.[0]}`);
    if (MINING_PROMPT.test(next)) {
      proc.write('N\n');
      await proc.waitForText(WALLET_PROMPT, { timeoutMs: o.timeoutMs });
    }
    proc.write('exit\n');
    proc.endInput();
    const exit = await proc.exited;
    if (exit.code !== 0) throw new WalletCreationError(`the wallet CLI exited with ${exit.code ?? exit.signal}:\n${proc.tail(20).join('\n')}`);
  } catch (err) {
    await proc.stop({ graceMs: 2000 });
    if (err instanceof WalletCreationError) throw err;
    throw new WalletCreationError(`creating the wallet ${o.file} with ${be.paths.walletCli} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  const all = text + proc.tail(200).join('\n');
  const cn = /Generated new legacy \(CN\) wallet: (\S+)/.exec(all)?.[1] ?? /Generated new wallet: (\S+)/.exec(all)?.[1];
  const carrot = /Generated new Carrot wallet: (\S+)/.exec(all)?.[1];
  if (!cn) throw new WalletCreationError(`the wallet CLI printed no address:\n${proc.tail(20).join('\n')}`);
  const lines = all.split('\n');
  const note = lines.findIndex((l) => l.startsWith('NOTE: the following 25 words'));
  const seed = note === -1 ? [] : lines.slice(note + 1, note + 6).join(' ').split(/\s+/).filter((w) => /^[a-zà-ÿ]+$/i.test(w)).slice(0, 25);
  return { file: o.file, cn, ...(carrot ? { carrot } : {}), seed };
}

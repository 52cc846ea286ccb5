// Create a wallet with the wallet CLI — a new one, or one restored from a 25-word seed — answering
// its prompts as they appear (never by timing): the seed language (by finding "English" in the
// list it prints), the restore height (0, if asked), the background-mining question (no), then
// `exit` at the wallet prompt. Parses the CN and Carrot addresses (Salvium) or the single address
// (Monero).
//
// A seed never goes on the command line (any user can read /proc/<pid>/cmdline): a restore is
// `--restore-deterministic-wallet` without `--electrum-seed`, and the seed is written to the CLI's
// stdin, where it reads it (input_secure_line: on a pipe one line, no prompt; v1.1.3c). Its log
// has the seed redacted, and every log saltnet writes is mode 0600.
//
// Two answers cannot wait for their prompt: the seed, and the seed offset passphrase the real CLI
// reads next with no prompt on a pipe. So the seed line and an empty line go first; without the
// empty line the next answer ("N") would become the passphrase and a different wallet would be
// restored (seen with monero-wallet-cli 0.18).
import { join } from 'node:path';
import { reportLines } from '../../process/errors.js';
import type { ManagedProcess } from '../../process/managed.js';
import type { Supervisor } from '../../process/supervisor.js';
import type { ResolvedBackend } from './binaries.js';
import { watchLiveness } from './liveness.js';
import { daemonAddress } from './wallet-rpc.js';
import { ringdbArgs } from '../workdir.js';

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
const RESTORE_HEIGHT_PROMPT = /or alternatively from specific date \(YYYY-MM-DD\): ?$/;
/** Asked when the restore height is not below the chain's estimated height (offline: always, the estimate is 0). */
const STILL_APPLY_PROMPT = /Still apply restore height\?\s+\(Y\/Yes\/N\/No\): $/;
const MINING_PROMPT = /\(Y\/Yes\/N\/No\): : $/;
const WALLET_PROMPT = /\[wallet [^\]]*\]: $/;
const ERROR_LINE = /^Error: .*/;

export interface CreateWalletOptions {
  file: string;
  /** The wallet password: only to redact it from the CLI's output (the CLI reads it from passwordFile). */
  password: string;
  /** `--password-file`: the password never goes on the command line. */
  passwordFile: string;
  /** The daemon it talks to; none with `offline`. */
  daemonUrl?: string;
  /** `--offline`: no daemon at all (nothing scanned: the wallet RPC that opens the wallet scans). */
  offline?: boolean;
  workdir: string;
  /** Deadline for each prompt, unscaled: waitForText applies --timeout-factor. */
  timeoutMs: number;
  /** Restore this 25-word seed (`--restore-deterministic-wallet`, the seed on stdin, from height 0), not a new one. */
  seed?: string;
  /** Process name (and log file name); default `wallet-cli`. */
  name?: string;
  /** `--subaddress-lookahead major:minor`, written into the keys file (default: wallet2's 50:200). */
  lookahead?: string;
  /** Told when the CLI stops answering (frozen) and when it goes on (liveness.ts). */
  log?: (line: string) => void;
}

export async function createWalletWithCli(
  sup: Supervisor,
  be: ResolvedBackend,
  o: CreateWalletOptions,
): Promise<CreatedWallet> {
  const daemon = o.offline ? ['--offline'] : ['--daemon-address', daemonAddress(o.daemonUrl ?? '127.0.0.1:29081')];
  const name = o.name ?? 'wallet-cli';
  const restore = o.seed ? ['--restore-deterministic-wallet', '--restore-height', '0'] : [];
  const proc = sup.start({
    name,
    command: be.paths.walletCli,
    args: [
      '--testnet',
      ...restore,
      '--generate-new-wallet',
      o.file,
      '--password-file',
      o.passwordFile,
      ...daemon,
      ...be.spec.walletArgs,
      ...(o.lookahead ? ['--subaddress-lookahead', o.lookahead] : []),
      ...ringdbArgs(o.workdir),
      '--log-file',
      join(o.workdir, 'logs', `${name}-file.log`),
    ],
    logFile: join(o.workdir, 'logs', `${name}.log`),
    secrets: [o.password, ...(o.seed ? seedSecrets(o.seed) : [])],
    stdin: 'pipe',
    expectExit: true,
  });
  let text = '';
  proc.onLine((l) => (text += `${l}\n`));
  // It has no RPC: only a freeze is noticed (its prompts have their own deadline); it is never restarted.
  const watch = watchLiveness({
    proc,
    onChange: (u) =>
      o.log?.(`saltnet: ${name} (pid ${proc.pid}) ${u ? `is not answering: ${u.reason}` : 'answers again'}`),
    onRestartDue: () => undefined,
  });
  try {
    await answerPrompts(proc, o);
    proc.write('exit\n');
    proc.endInput();
    const exit = await proc.exited;
    if (exit.code !== 0)
      throw new WalletCreationError(
        `the wallet CLI exited with ${exit.code ?? exit.signal}:\n${reportLines(proc.tail(), 20).join('\n')}`,
      );
  } catch (err) {
    await proc.stop({ graceMs: 2000 });
    if (err instanceof WalletCreationError) throw err;
    throw new WalletCreationError(
      `${o.seed ? 'restoring' : 'creating'} the wallet ${o.file} with ${be.paths.walletCli} failed: ${err instanceof Error ? err.message : String(err)}`,
    );
  } finally {
    watch.stop();
  }
  const w = created(o.file, text + proc.tail(200).join('\n'), proc);
  // What it printed of a restored seed is redacted: the seed is the one given.
  return o.seed ? { ...w, seed: o.seed.trim().split(/\s+/) } : w;
}

/**
 * Answer the CLI's prompts as they appear, each once; the wallet prompt ends the dialogue. A CLI asks only some of
 * them, in this order.
 */
async function answerPrompts(proc: ManagedProcess, o: CreateWalletOptions): Promise<void> {
  const prompts = [
    LANGUAGE_PROMPT,
    RESTORE_HEIGHT_PROMPT,
    STILL_APPLY_PROMPT,
    MINING_PROMPT,
    WALLET_PROMPT,
    ERROR_LINE,
  ];
  // The seed (read with no prompt on a pipe), then the silent seed offset passphrase: none.
  if (o.seed) proc.write(`${o.seed.trim().split(/\s+/).join(' ')}\n\n`);
  for (let answered = 0; answered < prompts.length; answered++) {
    const line = await proc.waitForText(prompts, { timeoutMs: o.timeoutMs });
    if (ERROR_LINE.test(line)) {
      // Failing to reach the daemon is only a warning for a new wallet: it still goes on to its prompt.
      if (/failed to connect to daemon/.test(line)) continue;
      throw new WalletCreationError(`the wallet CLI refused: ${ERROR_LINE.exec(line)?.[0]}`);
    }
    if (LANGUAGE_PROMPT.test(line)) {
      const english = /(\d+) : English/.exec(proc.tail(40).join('\n'))?.[1];
      if (!english)
        throw new WalletCreationError(
          `the wallet CLI offered no English seed language:\n${reportLines(proc.tail(), 20).join('\n')}`,
        );
      proc.write(`${english}\n`);
    } else if (RESTORE_HEIGHT_PROMPT.test(line)) proc.write('0\n');
    else if (STILL_APPLY_PROMPT.test(line)) proc.write('Y\n');
    else if (MINING_PROMPT.test(line)) proc.write('N\n');
    else return; // the wallet prompt
  }
}

/**
 * What to redact of a seed: the whole, and the lines the CLI prints it in (8, 8 and 9 words; the real CLI prints a
 * restored wallet's seed too).
 */
function seedSecrets(seed: string): string[] {
  const w = seed.trim().split(/\s+/);
  return [w.join(' '), w.slice(0, 8).join(' '), w.slice(8, 16).join(' '), w.slice(16).join(' ')].filter(Boolean);
}

/** The wallet the CLI made, from all it printed: its address (or CN and Carrot addresses) and its 25 seed words. */
function created(file: string, all: string, proc: ManagedProcess): CreatedWallet {
  const cn = /Generated new legacy \(CN\) wallet: (\S+)/.exec(all)?.[1] ?? /Generated new wallet: (\S+)/.exec(all)?.[1];
  const carrot = /Generated new Carrot wallet: (\S+)/.exec(all)?.[1];
  if (!cn)
    throw new WalletCreationError(`the wallet CLI printed no address:\n${reportLines(proc.tail(), 20).join('\n')}`);
  const lines = all.split('\n');
  const note = lines.findIndex((l) => l.startsWith('NOTE: the following 25 words'));
  const seed =
    note === -1
      ? []
      : lines
          .slice(note + 1, note + 6)
          .join(' ')
          .split(/\s+/)
          .filter((w) => /^[a-zà-ÿ]+$/i.test(w))
          .slice(0, 25);
  return { file, cn, ...(carrot ? { carrot } : {}), seed };
}

// The simulated wallet CLI's dialogue with its user, as the real one words it (reference §1.2): the
// password, the seed language, the generated wallet, the restore height not yet reached, the
// background-mining question.
import { readPasswordFile } from '../common/password.js';
import type { ParsedOptions } from '../common/options.js';
import { seedToWords } from '../crypto/mnemonic.js';
import { fromHex } from '../crypto/hex.js';
import type { DaemonClient } from '../wallet/daemon-client.js';
import { LANGUAGES, isNativeLanguage } from '../wallet/languages.js';
import type { Wallet } from '../wallet/state.js';
import type { LineInput } from './input.js';

const STARS = '*'.repeat(70);
export const out = (line = ''): void => void process.stdout.write(`${line}\n`);

export async function readPassword(
  opts: ParsedOptions,
  input: LineInput,
  creating: boolean,
): Promise<string | undefined> {
  const given = opts.get('password');
  if (given !== undefined) return given;
  const file = opts.get('password-file');
  if (file !== undefined) {
    try {
      return readPasswordFile(file);
    } catch {
      out('Error: the password file specified could not be read');
      process.exit(1);
    }
  }
  if (!process.stdin.isTTY) return input.ask(); // not a TTY: exactly one line, no prompt, no confirmation
  for (;;) {
    const pw = await input.ask(creating ? 'Enter a new password for the wallet: ' : 'Wallet password: ');
    if (pw === undefined || !creating) return pw;
    const again = await input.ask('Confirm password: ');
    if (again === pw) return pw;
    out('Passwords do not match! Please try again.');
  }
}

export async function readLanguage(opts: ParsedOptions, input: LineInput): Promise<string | undefined> {
  const given = opts.get('mnemonic-language');
  if (given && isNativeLanguage(given)) return given;
  out("List of available languages for your wallet's seed:");
  out('If your display freezes, exit blind with ^C, then run again with --use-english-language-names');
  const english = opts.has('use-english-language-names');
  LANGUAGES.forEach((l, i) => out(`${i} : ${english ? l.english : l.native}`));
  for (;;) {
    const answer = await input.ask('Enter the number corresponding to the language of your choice: ');
    if (answer === undefined) return undefined;
    const n = Number(answer.trim());
    if (/^\d+$/.test(answer.trim()) && n < LANGUAGES.length) return LANGUAGES[n]!.native;
    out('Invalid language choice entered. Please try again.');
  }
}

export function printGenerated(w: Wallet, showSeed: boolean): void {
  out(`Generated new legacy (CN) wallet: ${w.keys.cn.address}`);
  out(`Generated new Carrot wallet: ${w.keys.carrot.address}`);
  out(`View key: ${w.keys.cn.viewSecret}`);
  if (!showSeed) return;
  const words = seedToWords(fromHex(w.keysFile.seed));
  out(STARS);
  out('Your wallet has been generated!');
  out('To start synchronizing with the daemon, use the "refresh" command.');
  out('Use the "help" command to see a simplified list of available commands.');
  out('Use "help all" command to see the list of all available commands.');
  out('Use "help <command>" to see a command\'s documentation.');
  out('Always use the "exit" command when closing salvium-wallet-cli to save ');
  out("your current session's state. Otherwise, you might need to synchronize ");
  out('your wallet again (your wallet keys are NOT at risk in any case).');
  out('');
  out(
    'NOTE: the following 25 words can be used to recover access to your wallet. Write them down and store them somewhere safe and secure. Please do not store them in your email or on file storage services outside of your immediate control.',
  );
  out('');
  out(words.slice(0, 8).join(' '));
  out(words.slice(8, 16).join(' '));
  out(words.slice(16).join(' '));
  out(STARS);
}

export async function daemonHeight(daemon: DaemonClient): Promise<number | undefined> {
  return daemon.height().catch(() => undefined);
}

/**
 * A restore height the chain has not reached (offline the estimate is 0): the real CLI asks whether to apply it
 * anyway, and takes 0 on a no or end of input.
 */
export async function confirmRestoreHeight(
  height: number,
  opts: ParsedOptions,
  input: LineInput,
  daemon: DaemonClient,
): Promise<number> {
  const estimate = opts.has('offline') ? 0 : await daemonHeight(daemon);
  if (estimate === undefined || height < estimate) return height;
  out(`Restore height ${height} is not yet reached. The current estimated height is ${estimate}`);
  const answer = await input.ask('Still apply restore height?  (Y/Yes/N/No): ');
  return answer === undefined || /^(n|no)$/i.test(answer.trim()) ? 0 : height;
}

export async function askBackgroundMining(input: LineInput): Promise<void> {
  out('The daemon is not set up to background mine.');
  out('With background mining enabled, the daemon will mine when idle and not on battery.');
  out('Enabling this supports the network you are using, and makes you eligible for receiving new SALs');
  const answer = await input.ask('Do you want to do it now? (Y/Yes/N/No): : ');
  if (answer !== undefined && /^(y|yes)$/i.test(answer.trim()))
    out('Background mining enabled. Thank you for supporting the network.');
  else out('Background mining not enabled. Set setup-background-mining to 1 to change.');
}

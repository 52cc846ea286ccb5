// Generated credentials (wallet passwords, RPC login passwords). Hex only: the programs parse their
// command line with boost, which reads a value starting with "-" as an option, not as the value.
//
// No secret ever goes on a command line (any user can read /proc/<pid>/cmdline): the wallet
// password reaches the wallet programs as `--password-file wallets/.password` (mode 0600), and the
// Digest login password through the wallet RPC's stdin (`--rpc-login <user>` without `:password`
// makes it read the password from stdin: src/common/password.cpp, rpc_args.cpp).
import { writeSecretFile } from '../../common/secret-file.js';
import { chmodSync, existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export function generateSecret(bytes = 18): string {
  return randomBytes(bytes).toString('hex');
}

/** The wallet password file of a workdir: `--password-file` of every wallet program saltnet starts. */
export function walletPasswordFile(workdir: string): string {
  return join(workdir, 'wallets', '.password');
}

/**
 * The password a `--password-file` holds, read as wallet2 reads it (get_password in
 * src/wallet/wallet2.cpp: the file's bytes with trailing `\r` and `\n` removed), so that the
 * password saltnet sends over RPC (open_wallet, restore) is the one the programs read.
 */
export function readPasswordFile(file: string): string {
  return readFileSync(file, 'utf8').replace(/[\r\n]+$/, '');
}

/**
 * The workdir's wallet password: kept in wallets/.password (mode 0600), so the same workdir or
 * snapshot can be brought up again; generated the first time. A file found with looser
 * permissions (copied by hand) is made 0600.
 */
export function walletPassword(workdir: string): string {
  const file = walletPasswordFile(workdir);
  // Not through a link: reading it would take another file's text as the password, and chmod would change that file.
  if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink())
    throw new Error(
      `${file} is a symbolic link: saltnet keeps the wallets' password in that file itself; remove the link`,
    );
  if (existsSync(file)) {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return readPasswordFile(file);
  }
  const pw = generateSecret();
  writeSecretFile(file, pw);
  return pw;
}

/**
 * What a program reads on stdin as a password prompt's answer: one line. The real programs stop at
 * the first `\n` or `\r` (password_container's read_from_file), so a secret holding either cannot
 * be passed this way.
 */
export function passwordLine(secret: string): string {
  if (/[\r\n]/.test(secret)) throw new Error('a password given on stdin cannot contain a line break');
  return `${secret}\n`;
}

// Passwords as the real programs read them (src/common/password.cpp, src/wallet/wallet2.cpp):
//   --password-file   the file's bytes with trailing `\r` and `\n` removed (get_password's trim_right_if)
//   a prompt          from a terminal: the message, then a line (twice when it must be confirmed);
//                     from anything else (a pipe, /dev/null): one line without any prompt, ending at
//                     the first `\n` or `\r` or at end of input (password_container::read_from_file),
//                     at most 1024 characters
import { readFileSync } from 'node:fs';
import { createLineInput } from '../wallet-cli/input.js';

/** password_container::max_password_size */
const MAX_PASSWORD = 1024;

export class PasswordFileError extends Error {
  constructor() {
    super('the password file specified could not be read');
  }
}

/** `--password-file`: its text with trailing line breaks removed; PasswordFileError when it cannot be read. */
export function readPasswordFile(file: string): string {
  try {
    return readFileSync(file, 'utf8').replace(/[\r\n]+$/, '');
  } catch {
    throw new PasswordFileError();
  }
}

/** One line from a stdin that is not a terminal, as read_from_file reads it (EOF ends it too). */
function readLineFromPipe(): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const done = (): void => {
      process.stdin.off('data', onData);
      process.stdin.off('end', done);
      process.stdin.off('error', done);
      process.stdin.pause();
      const cut = text.search(/[\r\n]/);
      resolve((cut === -1 ? text : text.slice(0, cut)).slice(0, MAX_PASSWORD));
    };
    const onData = (chunk: Buffer | string): void => {
      text += chunk.toString();
      if (/[\r\n]/.test(text) || text.length >= MAX_PASSWORD) done();
    };
    process.stdin.on('data', onData);
    process.stdin.once('end', done);
    process.stdin.once('error', done);
    process.stdin.resume();
  });
}

/** password_container::prompt: undefined when a terminal's input ends before a password is given. */
export async function promptPassword(message: string, verify: boolean): Promise<string | undefined> {
  if (!process.stdin.isTTY) return readLineFromPipe();
  const input = createLineInput();
  try {
    for (;;) {
      const pw = await input.ask(`${message}: `);
      if (pw === undefined || !verify) return pw;
      const again = await input.ask('Confirm password: ');
      if (again === undefined) return undefined;
      if (again === pw) return pw;
      process.stdout.write('Passwords do not match! Please try again.\n');
    }
  } finally {
    input.close();
  }
}

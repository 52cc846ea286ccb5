// A file that holds a secret (the control endpoint's token, the wallets' password, a wallet RPC login): written
// afresh each time, never through a link someone put in its place, readable by its owner only.
import { closeSync, constants, openSync, rmSync, writeSync } from 'node:fs';

/**
 * Write `content` to a new file at `path` with mode 0600. Whatever is there first (a file, or a symlink, which is
 * removed and not followed) goes; the file is then created exclusively and without following links, so a link put
 * back in between makes this throw rather than write through it.
 */
export function writeSecretFile(path: string, content: string): void {
  rmSync(path, { force: true });
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
}

// How a simulated program ends on an error nothing else caught: a system error (a full disk, a
// folder that went away) in one line, as a real program reports it; anything else — a bug of the
// simulator — with its stack, to be fixed.

/** Print `err` and exit 1. */
export function dieOn(err: unknown): never {
  const e = err as NodeJS.ErrnoException;
  const system = err instanceof Error && typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code);
  process.stderr.write(
    `${system ? `Error: ${e.message}` : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
}

/** dieOn for errors thrown outside main's promise (a timer, a stream). */
export function dieOnUncaught(): void {
  process.on('uncaughtException', dieOn);
  process.on('unhandledRejection', dieOn);
}

/**
 * Exit with `code` once what was written to stdout and stderr has left the process. A pipe's writes are synchronous
 * on Linux only while the pipe has room: with its reader behind (a loaded machine, a fast miner's lines) they queue,
 * and process.exit() would drop the last of them, often the error line saying why (CI saw a full disk's daemon die
 * with `Found block` as its last words). At most 5 s.
 */
export function exitFlushed(code: number): void {
  process.exitCode = code;
  let left = 2;
  const done = (): void => {
    if (--left === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
  setTimeout(() => process.exit(code), 5000);
}

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

// A command that must finish its work even when it is stopped — `saltnet run` writes its report —
// sees Ctrl-C, SIGTERM and SIGHUP as an interruption (harness/process/interrupt.ts) instead of
// dying at once. The testnets' supervisors, when one is up, stop the testnets and exit once the
// work is done (and kill everything at a second signal); with none up, the work ends by itself and
// a second signal ends the process at once.
import { holdExit, interrupt, interrupted, interruption, SIGNAL_EXIT_CODES } from '../process/interrupt.js';
import { trappingSignals } from '../process/supervisor.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Run `work` with the process's interruption as its signal; sets process.exitCode to 130/143/129 when it was
 * interrupted. `doing`: what the first signal does, said on stderr.
 */
export async function interruptible<T>(
  work: (signal: AbortSignal) => Promise<T>,
  doing = 'stopping the run',
): Promise<T> {
  let count = 0;
  const onSignal = (sig: NodeJS.Signals): void => {
    count++;
    interrupt(sig);
    if (trappingSignals()) return; // a supervisor says what happens, stops the testnets and exits
    if (count > 1) process.exit(SIGNAL_EXIT_CODES[sig] ?? 1);
    process.stderr.write(`saltnet: ${sig} received, ${doing} (again to quit at once)\n`);
  };
  const listeners = SIGNALS.map((sig) => [sig, () => onSignal(sig)] as const);
  for (const [sig, l] of listeners) process.on(sig, l);
  try {
    return await holdExit(work(interruption()));
  } finally {
    for (const [sig, l] of listeners) process.off(sig, l);
    const i = interrupted();
    if (i) process.exitCode = i.exitCode;
  }
}

/** The exit code of a command that was interrupted (130, 143, 129), else undefined. */
export function interruptedExitCode(): number | undefined {
  return interrupted()?.exitCode;
}

// Ctrl-C (or SIGTERM, SIGHUP) as something the whole harness can see before anything is stopped.
// The signal handler calls interrupt() first, then stops the testnets: a scenario step waiting on
// a program then ends as "interrupted by SIGINT" instead of the refused connection the stopping
// program causes. And work that must finish before the process exits — the report of `saltnet
// run` — holds the exit (holdExit) until it is written.
import { setTimeout as sleep } from 'node:timers/promises';

/** The reason of the interruption signal: which signal, and the exit code it means (130, 143, 129). */
export class Interrupted extends Error {
  readonly exitCode: number;
  constructor(readonly signal: NodeJS.Signals) {
    super(`interrupted by ${signal}`);
    this.name = 'Interrupted';
    this.exitCode = SIGNAL_EXIT_CODES[signal] ?? 1;
  }
}

/** The conventional exit code of a process ended by each signal (128 + its number). */
export const SIGNAL_EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

let controller = new AbortController();
const holds = new Set<Promise<unknown>>();

/** Aborted (reason: an Interrupted) once the process was asked to stop. */
export function interruption(): AbortSignal {
  return controller.signal;
}

/** Record that the process was asked to stop by `sig` (the first signal counts; later ones change nothing). */
export function interrupt(sig: NodeJS.Signals): void {
  if (!controller.signal.aborted) controller.abort(new Interrupted(sig));
}

/** The interruption, once there was one. */
export function interrupted(): Interrupted | undefined {
  const r: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
  return r instanceof Interrupted ? r : undefined;
}

/** Keep the process from exiting on a trapped signal until `work` has settled (see exitHeld). Returns `work`. */
export function holdExit<T>(work: Promise<T>): Promise<T> {
  holds.add(work);
  const done = (): void => void holds.delete(work);
  work.then(done, done);
  return work;
}

/** Wait for every held piece of work to settle, at most `maxMs`. */
export async function exitHeld(maxMs: number): Promise<void> {
  if (holds.size === 0) return;
  await Promise.race([Promise.allSettled([...holds]), sleep(maxMs, undefined, { ref: false })]);
}

/** For tests in one process: forget the interruption. */
export function resetInterruption(): void {
  controller = new AbortController();
}

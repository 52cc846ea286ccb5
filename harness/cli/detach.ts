// `saltnet up --detach`: the same `up`, started in the background in a session of its own, its
// ready line printed (human or --json) once it is up, and this process gone with exit code 0. The
// background `up` owns the testnet exactly as a foreground one does (the watchdog, the run record,
// `saltnet status`, `saltnet mine`); `saltnet down` stops it. For CI scripts: no `&`, no `kill $!`
// that reaches npm's wrapper instead of saltnet.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { SIGNAL_EXIT_CODES } from '../process/interrupt.js';
import { humanReady, type ReadySummary } from './up-output.js';

/** Set in the background `up`: after its ready line nobody reads its output. */
export const DETACHED_ENV = 'SALTNET_DETACHED';

/** In the background `up`: once the ready line is out, writes to the closed pipes are dropped, not fatal. */
export function quietAfterReady(): void {
  for (const s of [process.stdout, process.stderr]) s.on('error', () => undefined);
}

/** The command line of the background `up`: this one without --detach, with --json. */
function childArgs(): string[] {
  const args = process.argv.slice(2).filter((a) => !/^--(no-)?detach(=.*)?$/.test(a));
  return args.includes('--json') ? args : [...args, '--json'];
}

/** A line on stderr that may have lost its reader (SIGHUP: the terminal closed): never fatal. */
function say(text: string): void {
  if (process.stderr.destroyed || process.stderr.writableEnded) return;
  try {
    process.stderr.write(text);
  } catch {
    /* nowhere to say it */
  }
}

/**
 * Starts the background `up` (this command line, without --detach) and prints its ready line: the
 * JSON line as it came (`json`), or the same facts for people.
 */
export async function detach(argv: { json: boolean }): Promise<void> {
  const child = spawn(process.execPath, [process.argv[1]!, ...childArgs()], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, [DETACHED_ENV]: '1' },
  });
  const tail: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => {
    say(`${l}\n`);
    tail.push(l);
    if (tail.length > 40) tail.shift();
  });
  // Ctrl-C, SIGTERM or SIGHUP (the terminal closed) while it starts: the background up, in a session of its own, gets
  // none of them by itself. Each is passed on: it stops the testnet it was starting, as a foreground up does (a second
  // one kills at once), and this process says so, waits for it to end, and exits with the signal's code.
  let stoppedBy: NodeJS.Signals | undefined;
  const stop = (sig: NodeJS.Signals): void => {
    if (!stoppedBy) {
      stoppedBy = sig;
      for (const s of [process.stdout, process.stderr]) s.on('error', () => undefined);
      say(
        `saltnet: ${sig} received: stopping the background saltnet up (pid ${child.pid}) and the testnet it is ` +
          'starting (again to kill them at once)\n',
      );
    }
    child.kill(sig);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const sig of signals) process.on(sig, stop);
  const ready = await new Promise<ReadySummary | undefined>((ok, fail) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (l) => {
      try {
        const j = JSON.parse(l) as ReadySummary;
        if (j.event === 'ready' && !stoppedBy) ok(j);
      } catch {
        // not a JSON line: not the ready line
      }
    });
    child.on('exit', (code, signal) => {
      if (stoppedBy) return ok(undefined);
      fail(
        new Error(
          `the background saltnet up ended before it was ready (${signal ?? `exit code ${code}`})` +
            (tail.length ? `; its last lines:\n${tail.slice(-15).join('\n')}` : ''),
        ),
      );
    });
  });
  if (!ready) {
    say(`saltnet: the background saltnet up has ended (${stoppedBy!}), and with it the testnet it was starting\n`);
    process.exit(SIGNAL_EXIT_CODES[stoppedBy!] ?? 1);
  }
  child.stdout!.destroy();
  child.stderr!.destroy();
  child.unref();
  const withOwner = { ...ready, ownerPid: child.pid! };
  process.stdout.write(
    argv.json
      ? `${JSON.stringify(withOwner)}\n`
      : humanReady(ready, `Running in the background (pid ${child.pid}): stop it with \`saltnet down\`.`),
  );
  process.exit(0);
}

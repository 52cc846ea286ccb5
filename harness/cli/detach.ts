// `saltnet up --detach`: the same `up`, started in the background in a session of its own, its
// ready line printed (human or --json) once it is up, and this process gone with exit code 0. The
// background `up` owns the testnet exactly as a foreground one does (the watchdog, the run record,
// `saltnet status`, `saltnet mine`); `saltnet down` stops it. For CI scripts: no `&`, no `kill $!`
// that reaches npm's wrapper instead of saltnet.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ArgumentsCamelCase } from 'yargs';
import { humanReady, type ReadySummary } from './up-output.js';
import type { UpArgs } from './up.js';

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

export async function detach(argv: ArgumentsCamelCase<UpArgs>): Promise<void> {
  const child = spawn(process.execPath, [process.argv[1]!, ...childArgs()], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, [DETACHED_ENV]: '1' },
  });
  const tail: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => {
    process.stderr.write(`${l}\n`);
    tail.push(l);
    if (tail.length > 40) tail.shift();
  });
  const ready = await new Promise<ReadySummary>((ok, fail) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (l) => {
      try {
        const j = JSON.parse(l) as ReadySummary;
        if (j.event === 'ready') ok(j);
      } catch {
        // not a JSON line: not the ready line
      }
    });
    child.on('exit', (code, signal) =>
      fail(
        new Error(
          `the background saltnet up ended before it was ready (${signal ?? `exit code ${code}`})` +
            (tail.length ? `; its last lines:\n${tail.slice(-15).join('\n')}` : ''),
        ),
      ),
    );
    // Ctrl-C while it starts: the background up is stopped too (it traps the signal and cleans up).
    const stop = (sig: NodeJS.Signals): void => void child.kill(sig);
    process.once('SIGINT', stop).once('SIGTERM', stop);
  });
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

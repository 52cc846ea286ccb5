// The `saltnet` command of each operation with a command face (operations/operation.ts: fund, …): its words read
// into the request body, sent to the running testnet's control endpoint, and its answer said in words (or printed as
// JSON with --json). Interrupted (Ctrl-C, SIGTERM, SIGHUP), the command asks the testnet to cancel the request and
// says what became of it: given up, or — once past its point of no return — finishing, and with what. While it runs,
// the testnet's mining progress is said on stderr (progress-lines.ts).
import type { CommandModule } from 'yargs';
import { randomUUID } from 'node:crypto';
import { backendSpec } from '../coin/backends.js';
import { operate, requestCancel, type CancelAnswer, type ControlInfo } from '../control/client.js';
import { operations } from '../operations/index.js';
import type { CommandFace, Facts, InterruptedWords, Operation } from '../operations/operation.js';
import { interruptible } from './interruptible.js';
import { progressPrinter } from './progress-lines.js';
import { pickControl } from './runs.js';

interface CommonArgs {
  run?: string;
  json: boolean;
}

/** A command for every operation with a command face, in the table's order. */
export function operationCommands(): CommandModule[] {
  return operations().flatMap((op) => (op.command ? [commandOf(op, op.command)] : []));
}

function commandOf(op: Operation, face: CommandFace<unknown, unknown>): CommandModule {
  return {
    command: face.usage,
    describe: face.describe,
    builder: (y) => {
      for (const [name, spec] of Object.entries(face.positionals ?? {})) y.positional(name, spec);
      return y
        .options(face.options ?? {})
        .option('run', { type: 'string', describe: 'which run, when several are up' })
        .option('json', { type: 'boolean', default: false, describe: 'print the answer as one JSON line' })
        .check((a) => {
          face.check?.(a);
          return true;
        });
    },
    handler: (argv) => runCommand(op, face, argv as unknown as CommonArgs & Record<string, unknown>),
  };
}

async function runCommand(
  op: Operation,
  face: CommandFace<unknown, unknown>,
  argv: CommonArgs & Record<string, unknown>,
): Promise<void> {
  const { run, info, control } = pickControl(argv.run);
  if (!info.backend)
    throw new Error(`run ${run.runId} does not say which backend it runs (an older saltnet started it)`);
  const facts: Facts = { spec: backendSpec(info.backend) };
  const body = face.body ? face.body(argv, facts) : {};
  const answer = await askInterruptibly(op, control, body, face.interrupted ?? generic(op), argv.json);
  if (answer === NONE) return;
  process.stdout.write(
    `${argv.json ? JSON.stringify(face.json ? face.json(answer) : answer) : face.say(answer, facts)}\n`,
  );
}

/** What any interrupted request says became of it. */
const generic = (op: Operation): InterruptedWords<unknown> => ({
  cancelled: `interrupted: the testnet gave up the request (cannot ${op.what} now; what it did before stays)`,
  finishing: () => `interrupted, but the testnet is past the point where it can stop: it finishes the request`,
  failed: (error) => `interrupted; the request failed (${error})`,
});

const NONE = Symbol('interrupted');

/**
 * The request, with an interruption asking the testnet to cancel it (`/cancel`) and saying what became of it on
 * stderr (and as a JSON line with --json). NONE when interrupted and told so (the exit code is then 130, 143 or 129).
 */
function askInterruptibly(
  op: Operation,
  control: ControlInfo,
  body: unknown,
  words: InterruptedWords<unknown>,
  json: boolean,
): Promise<unknown> {
  return interruptible(async (interruption) => {
    const id = randomUUID();
    const giveUp = new AbortController();
    let settled = false;
    let told: Promise<void> | undefined;
    let said = false;
    const tell = (line: string, c: CancelAnswer): void => {
      said = true;
      process.stderr.write(`saltnet: ${line}\n`);
      if (json) process.stdout.write(`${JSON.stringify({ interrupted: true, ...c })}\n`);
    };
    const onInterrupt = (): void => {
      told = requestCancel(control, id)
        .then(
          // Unknown once the request was answered: that answer is the outcome.
          (c) => (c.state === 'unknown' && settled ? undefined : tell(outcome(c, body, words), c)),
          (err: unknown) =>
            tell(
              `interrupted; the testnet could not be asked to cancel the request (${err instanceof Error ? err.message : String(err)}): it may still be done, see the output of saltnet up`,
              { state: 'unknown' },
            ),
        )
        .finally(() => giveUp.abort());
    };
    interruption.addEventListener('abort', onInterrupt, { once: true });
    try {
      const onProgress = progressPrinter(op.what, {
        json,
        terminal: process.stderr.isTTY === true,
        write: (line) => process.stderr.write(`${line}\n`),
      });
      const res = await operate(control, op.name, body, { id, signal: giveUp.signal, onProgress }).finally(
        () => (settled = true),
      );
      await told;
      return res;
    } catch (err) {
      if (!told) throw err;
      await told;
      if (!said) throw err;
      return NONE;
    } finally {
      interruption.removeEventListener('abort', onInterrupt);
    }
  }, `asking the testnet to cancel the request`);
}

/** What became of an interrupted request, from the testnet's answer to the cancel. */
function outcome(c: CancelAnswer, body: unknown, words: InterruptedWords<unknown>): string {
  switch (c.state) {
    case 'cancelled':
      return words.cancelled;
    case 'finishing':
      return words.finishing(c.detail, body);
    case 'failed':
      return words.failed(c.error ?? 'no reason given');
    default:
      return 'interrupted before the testnet began the request: nothing was done';
  }
}

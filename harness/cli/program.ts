// The `saltnet` command line: every command, its options and the config middleware, without
// parsing. main.ts parses process.argv with it; the docs test checks every command line of the docs.
import yargs, { type Argv, type CommandModule } from 'yargs';
import { packageVersion } from '../common/paths.js';
import { CONFIG_OPTION, configOption } from '../config/yargs.js';
import { applyConfig } from './config.js';
import { positionalsAfterDashDash } from './dash-dash.js';
import { suggest } from '../common/suggest.js';
import { cacheCommand } from './cache.js';
import { diffCommand } from './diff.js';
import { doctorCommand } from './doctor.js';
import { downCommand } from './down.js';
import { fuzzCommand } from './fuzz.js';
import { installCommand } from './install.js';
import { operateCommand } from './operate.js';
import { operationCommands } from './operation-commands.js';
import { recordCommand } from './record.js';
import { reportCommand } from './report.js';
import { reproCommand } from './repro.js';
import { runCommand } from './run.js';
import { snapshotCommand } from './snapshot.js';
import { statusCommand } from './status.js';
import { upCommand } from './up.js';

/** Every command, those of operations registered so far included. */
const commands = (): CommandModule[] =>
  [
    upCommand,
    downCommand,
    statusCommand,
    ...operationCommands(),
    operateCommand,
    doctorCommand,
    runCommand,
    reportCommand,
    diffCommand,
    fuzzCommand,
    reproCommand,
    recordCommand,
    cacheCommand,
    snapshotCommand,
    installCommand,
  ] as unknown as CommandModule[];

/** Each command's name, and whether it declares positionals (`fund <address> <amount>`: yes; `record`: no). */
const takesPositionals = (all: CommandModule[]): Map<string, boolean> =>
  new Map(
    all.map((c) => {
      const [name = '', ...rest] = String([c.command].flat()[0] ?? '').split(' ');
      return [name, rest.some((w) => /^[<[]/.test(w))] as const;
    }),
  );

/** yargs' `Unknown argument: upp` for a first word that is no command, said as one with the command meant. */
function unknownCommand(msg: string, first: string | undefined, names: string[]): string | undefined {
  if (first === undefined || first.startsWith('-') || names.includes(first)) return undefined;
  if (msg !== `Unknown argument: ${first}` && !msg.startsWith(`Unknown arguments: ${first}, `)) return undefined;
  const near = suggest(first, names);
  return `unknown command ${first}${near ? ` (did you mean ${near}?)` : ''}; the commands are ${names.join(', ')}`;
}

/** Thrown instead of running a command when the line is only checked (`parseOnly`). */
export class ParsedOnly extends Error {
  constructor(readonly argv: Record<string, unknown>) {
    super('parsed only');
  }
}

/**
 * yargs renders a command's whole help each time the command runs (0.2–0.5 s of CPU for `up`, a third of a short
 * run's), to print it should the handler fail later. saltnet's failures never print help (`.fail` below throws), so
 * it is not rendered. Best effort: a yargs without this internal method renders it as usual.
 */
function skipHelpCache(y: Argv): void {
  const internal = (y as unknown as { getInternalMethods?: () => { getUsageInstance?: () => object } })
    .getInternalMethods?.()
    .getUsageInstance?.();
  if (internal && 'cacheHelpMessage' in internal) Object.assign(internal, { cacheHelpMessage: () => undefined });
}

/**
 * The `saltnet` yargs program for `args`. With `parseOnly`, parsing and validation run (unknown options, choices,
 * checks) but no command does: a line that passes rejects with ParsedOnly.
 */
export function saltnetCli(args: string[], o: { parseOnly?: boolean } = {}): Argv {
  const all = commands();
  const positionals = takesPositionals(all);
  const names = [...positionals.keys()];
  const y = yargs(positionalsAfterDashDash(args, positionals))
    .scriptName('saltnet')
    // yargs would look for a package.json from the working directory up: "unknown" outside the package.
    .version(packageVersion())
    .usage('$0 <command> [options]\n\nA private, throwaway Salvium testnet.')
    .option('timeout-factor', { ...configOption('timeoutFactor'), global: true })
    .option('config', { ...CONFIG_OPTION, global: true })
    .option('verbose', {
      type: 'boolean',
      global: true,
      describe: 'also print each step on the way: programs ready, snapshots restored and saved, blocks automine mines',
    })
    .middleware(
      o.parseOnly
        ? (argv) => {
            throw new ParsedOnly(argv);
          }
        : applyConfig,
    );
  for (const c of all) y.command(c);
  skipHelpCache(y);
  return y
    .demandCommand(1, `say what to do: saltnet ${names.join(' | ')}`)
    .strict()
    .fail((msg, err) => {
      throw err ?? new Error(unknownCommand(msg, args[0], names) ?? msg);
    })
    .help();
}

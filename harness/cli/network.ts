// `saltnet partition`, `saltnet heal`, `saltnet link`, `saltnet sync`: the links between the nodes of
// a running `saltnet up --nodes N`, changed by the process that owns them (its control endpoint).
import type { CommandModule } from 'yargs';
import { operate, type AnswerOf, type ControlInfo } from '../control/client.js';
import { LINK_MODES, type LinkMode } from '../network/proxy.js';
import { pickControl } from './runs.js';

interface RunArgs {
  run?: string;
  json?: boolean;
}

const controlOf = (runId: string | undefined): ControlInfo => pickControl(runId).control;

function print(a: AnswerOf<'sync'>, json: boolean | undefined): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(a)}\n`);
    return;
  }
  process.stdout.write(`groups: ${a.groups.map((g) => `[${g.join(', ')}]`).join(' ')}\n`);
  for (const l of a.links)
    process.stdout.write(`  ${l.link}  ${l.mode}${l.delayMs ? `, delay ${l.delayMs} ms` : ''}\n`);
}

const common = {
  run: { type: 'string', describe: 'which run, when several are up' },
  json: { type: 'boolean' },
} as const;

/** `n0` `n1,n2` → [['n0'], ['n1', 'n2']]. */
export function parseGroups(words: readonly string[]): string[][] {
  return words.map((w) =>
    w
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== ''),
  );
}

export const partitionCommand: CommandModule<object, RunArgs & { groups: string[] }> = {
  command: 'partition <groups..>',
  describe:
    'cut the links between groups of nodes (each group: node names joined by commas): saltnet partition n0 n1,n2',
  builder: (y) =>
    y
      .positional('groups', { type: 'string', array: true, describe: 'the groups, e.g. n0 n1,n2' })
      .options(common) as never,
  handler: async (argv) =>
    print(await operate(controlOf(argv.run), 'partition', { groups: parseGroups(argv.groups) }), argv.json),
};

export const healCommand: CommandModule<object, RunArgs> = {
  command: 'heal',
  describe: 'open every link between the nodes again (the heavier chain then wins)',
  builder: (y) => y.options(common) as never,
  handler: async (argv) => print(await operate(controlOf(argv.run), 'heal', {}), argv.json),
};

export const linkCommand: CommandModule<object, RunArgs & { a: string; b: string; mode?: LinkMode; delay?: number }> = {
  command: 'link <a> <b>',
  describe: 'set the link between two nodes: --mode cut|drop|open, --delay <ms>',
  builder: (y) =>
    y
      .positional('a', { type: 'string', demandOption: true })
      .positional('b', { type: 'string', demandOption: true })
      .option('mode', { choices: LINK_MODES, describe: 'cut: closed; drop: connected, every byte lost; open' })
      .option('delay', { type: 'number', describe: 'milliseconds added to every chunk, each way' })
      .options(common)
      .check((a) => {
        if (a.mode === undefined && a.delay === undefined) throw new Error('say what to change: --mode or --delay');
        if (a.delay !== undefined && (!Number.isInteger(a.delay) || a.delay < 0 || a.delay > 600_000))
          throw new Error(`--delay: ${String(a.delay)} is not a whole number of milliseconds from 0 to 600000`);
        return true;
      }) as never,
  handler: async (argv) =>
    print(
      await operate(controlOf(argv.run), 'link', {
        a: argv.a,
        b: argv.b,
        ...(argv.mode ? { mode: argv.mode } : {}),
        ...(argv.delay !== undefined ? { delayMs: argv.delay } : {}),
      }),
      argv.json,
    ),
};

export const syncCommand: CommandModule<object, RunArgs> = {
  command: 'sync',
  describe: "wait until the nodes of each group stand on one top block, and refresh every wallet to its node's height",
  builder: (y) => y.options(common) as never,
  handler: async (argv) => print(await operate(controlOf(argv.run), 'sync', {}), argv.json),
};

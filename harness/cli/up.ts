// `saltnet up`: start a testnet (from the chain-state cache when it can), print how to reach it,
// stay up until Ctrl-C. `saltnet snapshot load` ends here too, from an imported snapshot.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { resolveCacheDir } from '../common/cache-dir.js';
import { scaled } from '../common/timeouts.js';
import { startTestnet, type MiningProgress, type TestnetEvent, type TestnetOptions } from '../testnet/testnet.js';
import { startControlServer } from '../control/server.js';
import { DETACHED_ENV, detach, quietAfterReady } from './detach.js';
import { humanReady, summary } from './up-output.js';
import { testnetOptions, toTestnetOptions, type TestnetArgs } from './testnet-options.js';
import { configOption } from '../config/yargs.js';
import { closeExplorer } from '../ui/explorer.js';
import { beginMetrics, endMetrics } from '../metrics/metrics.js';
import { PortsTakenError } from '../process/port-holder.js';
import { assertPortsFree } from '../process/ports.js';
import { resolveBackend } from '../testnet/programs/binaries.js';
import { fixedPorts } from '../testnet/programs/standard-ports.js';
import { openExplorer, uiPortOption } from '../operations/ui.js';
import { progressLog } from './progress-log.js';

export interface UpArgs extends TestnetArgs {
  json: boolean;
  detach?: boolean;
  snapshot?: string;
  /** Serve the explorer (config key `ui`). */
  ui?: boolean;
  uiPort?: number;
}

export const upOptions = <T>(y: Argv<T>): Argv<T & UpArgs> =>
  testnetOptions(y, 'up')
    .option('json', {
      type: 'boolean',
      default: false,
      describe: 'print one JSON line when ready, then one per crash, restart and pid change',
    })
    .option('ui', configOption('ui'))
    .option('ui-port', uiPortOption) as unknown as Argv<T & UpArgs>;

export const upCommand: CommandModule<object, UpArgs> = {
  command: 'up',
  describe: 'start a testnet with a funded wallet and stay up until Ctrl-C',
  builder: (y) =>
    upOptions(y)
      .option('snapshot', {
        type: 'string',
        describe: 'start from this snapshot key of the cache (see saltnet cache ls)',
      })
      .option('detach', {
        type: 'boolean',
        default: false,
        describe: 'start the testnet in the background: print the ready line, exit 0; `saltnet down` stops it',
      }) as unknown as Argv<UpArgs>,
  handler: (argv) => (argv.detach ? detach(argv) : up(argv)),
};

/**
 * `--ui --ui-port N`, before anything starts: N is not a port the testnet takes itself (`--ports standard`), and it is
 * free now, or an error naming what holds it.
 */
async function checkUiPort(port: number, o: TestnetOptions): Promise<void> {
  // A backend that cannot be resolved fails the start with its own message.
  const spec =
    o.ports === 'standard'
      ? safely(() => resolveBackend(o.backend ?? 'auto', o.binDir, o.cacheDir ? { cacheDir: o.cacheDir } : {}).spec)
      : undefined;
  const fixed = spec && fixedPorts(spec, o.ports);
  if (spec && fixed) {
    const own: [number, string][] = [
      [fixed.daemon.rpc, `${spec.binaries.daemon}'s RPC`],
      [fixed.daemon.zmq, `${spec.binaries.daemon}'s ZMQ`],
      [fixed.daemon.p2p, `${spec.binaries.daemon}'s P2P`],
      [fixed.walletRpc, `the main wallet's ${spec.binaries.walletRpc}`],
    ];
    const clash = own.find(([p]) => p === port);
    if (clash)
      throw new Error(
        `--ui-port ${port}: --ports standard puts ${clash[1]} on port ${port}; choose another --ui-port (nothing was started)`,
      );
  }
  try {
    await assertPortsFree([{ port, what: 'the explorer' }]);
  } catch (err) {
    if (!(err instanceof PortsTakenError)) throw err;
    throw new PortsTakenError(err.taken, {
      prefix: '--ui-port: ',
      suffix: '\nnothing was started: choose another --ui-port, or leave it out for a free one',
    });
  }
}

const safely = <T>(f: () => T): T | undefined => {
  try {
    return f();
  } catch {
    return undefined;
  }
};

export async function up(argv: ArgumentsCamelCase<UpArgs>, extra: Partial<TestnetOptions> = {}): Promise<void> {
  const log = progressLog;
  const options: TestnetOptions = {
    ...toTestnetOptions(argv),
    ...(argv.snapshot ? { snapshotKey: argv.snapshot } : {}),
    log,
    // With --json the mining progress of the start (a cold build's blocks, the RandomX dataset) comes as JSON lines on
    // stderr: stdout's first line stays the ready line.
    ...(argv.json ? { onProgress: (p: MiningProgress) => log(JSON.stringify(p)) } : {}),
    holder: 'up',
    ...extra,
  };
  if (argv.ui && argv.uiPort !== undefined) await checkUiPort(argv.uiPort, options);
  const t = await startTestnet(options);
  const control = await startControlServer(
    t,
    t.snapshot.cacheDir ?? resolveCacheDir(argv.cacheDir ? { cacheDir: argv.cacheDir } : {}),
  );
  t.supervisor.updateInfo({ control: control.info });
  beginMetrics(t);
  const ui = argv.ui ? await openExplorer(t, argv.uiPort) : undefined;
  const s = { ...summary(t), ...(ui ? { ui: ui.url } : {}) };
  if (argv.json) process.stdout.write(`${JSON.stringify(s)}\n`);
  else process.stdout.write(humanReady(s, 'Press Ctrl-C to stop.'));
  if (process.env[DETACHED_ENV]) quietAfterReady();
  // Stay up until a signal (the supervisor stops every process on SIGINT/SIGTERM and exits) or
  // until a program has crashed once more than its restarts allow. Every crash, restart and pid
  // change is told as it happens: on stderr by the testnet, and with --json as a line on stdout.
  const failed = await new Promise<Extract<TestnetEvent, { event: 'failed' | 'workdir-gone' }>>((ok) =>
    t.onEvent((e) => {
      if (argv.json) process.stdout.write(`${JSON.stringify(e)}\n`);
      if (e.event === 'failed' || e.event === 'workdir-gone') ok(e);
    }),
  );
  await control.drain(scaled(5000));
  await control.close();
  await closeExplorer(t);
  await endMetrics(t);
  await t.stop();
  if (failed.event === 'workdir-gone') throw new Error(failed.message);
  const itsLog = failed.logFile ? `; its log: ${failed.logFile}` : '';
  // A crash once too often, or a start again that could not be made (a port taken, the workdir gone).
  if (/not started again|could not be started again/.test(failed.message))
    throw new Error(`the testnet is down: ${failed.message}${itsLog}`);
  throw new Error(
    `the testnet is down: ${failed.program} crashed and has no restarts left (${failed.message})${itsLog}`,
  );
}

// `saltnet up`: start a testnet (from the chain-state cache when it can), print how to reach it,
// stay up until Ctrl-C. `saltnet snapshot load` ends here too, from an imported snapshot.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { resolveCacheDir } from '../common/cache-dir.js';
import { startTestnet, type Testnet, type TestnetEvent, type TestnetOptions } from '../testnet/testnet.js';
import { configOption } from '../config/yargs.js';
import { startControlServer } from '../control/server.js';
import { testnetOptions, toTestnetOptions, type TestnetArgs } from './testnet-options.js';

export interface UpArgs extends TestnetArgs {
  workdir?: string;
  json: boolean;
  login: 'none' | 'digest';
  snapshot?: string;
}

export const upOptions = <T>(y: Argv<T>): Argv<T & UpArgs> =>
  testnetOptions(y).option('workdir', configOption('workdir')).option('login', configOption('login')).option('json', {
    type: 'boolean',
    default: false,
    describe: 'print one JSON line when ready, then one per crash, restart and pid change',
  }) as unknown as Argv<T & UpArgs>;

export function summary(t: Testnet): Record<string, unknown> {
  return {
    event: 'ready',
    runId: t.runId,
    backend: t.backend.spec.name,
    binaries: t.backend.source,
    workdir: t.workdir,
    height: t.readyHeight,
    snapshot: t.snapshot,
    mining: t.mining,
    daemon: {
      url: t.daemon.url,
      pid: t.daemon.pid,
      dataDir: t.daemon.dataDir,
      log: t.daemon.logFile,
      ports: t.daemon.ports,
    },
    wallet: {
      url: t.wallet.url,
      pid: t.wallet.pid,
      file: t.wallet.file,
      address: t.wallet.address,
      addresses: t.wallet.addresses,
      log: t.wallet.logFile,
      ...(t.wallet.credentials
        ? { login: `${t.wallet.credentials.username}:<in ${t.workdir}/wallets/.rpc-login>` }
        : {}),
    },
    miner: t.miner,
    phasesMs: t.phases,
  };
}

export const upCommand: CommandModule<object, UpArgs> = {
  command: 'up',
  describe: 'start a testnet with a funded wallet and stay up until Ctrl-C',
  builder: (y) =>
    upOptions(y).option('snapshot', {
      type: 'string',
      describe: 'start from this snapshot key of the cache (see saltnet cache ls)',
    }) as unknown as Argv<UpArgs>,
  handler: (argv) => up(argv),
};

const SNAPSHOT_WORDS: Record<string, string> = {
  hit: 'restored from the cache',
  built: 'built and saved to the cache',
  rebuilt: 'rebuilt (the cached one was corrupt) and saved',
  reused: 'continued from the workdir',
  off: 'mined from scratch (cache off)',
};

/** "difficulty 500 (the chain state to height 1201 was mined at difficulty 1), RandomX full, 2 threads". */
function miningWords(t: Testnet): string {
  const m = t.mining;
  const p = t.snapshot.prefix;
  const prefix =
    p && p.difficulty !== m.difficulty
      ? ` (the chain state to height ${p.height} was mined at difficulty ${p.difficulty})`
      : '';
  return `difficulty ${m.difficulty}${prefix}${m.randomx ? `, RandomX ${m.randomx}` : ''}, ${m.threads} thread${m.threads === 1 ? '' : 's'}`;
}

export async function up(argv: ArgumentsCamelCase<UpArgs>, extra: Partial<TestnetOptions> = {}): Promise<void> {
  const log = (l: string): void => void process.stderr.write(`${l}\n`);
  const t = await startTestnet({
    ...toTestnetOptions(argv),
    ...(argv.workdir ? { workdir: argv.workdir } : {}),
    ...(argv.snapshot ? { snapshotKey: argv.snapshot } : {}),
    login: argv.login,
    log,
    ...extra,
  });
  const control = await startControlServer(
    t,
    t.snapshot.cacheDir ?? resolveCacheDir(argv.cacheDir ? { cacheDir: argv.cacheDir } : {}),
  );
  t.supervisor.updateInfo({ control: control.info });
  const s = summary(t);
  if (argv.json) process.stdout.write(`${JSON.stringify(s)}\n`);
  else {
    const w = s.wallet as Record<string, unknown>;
    process.stdout.write(
      [
        `saltnet is up (${t.backend.reason}), height ${t.readyHeight}`,
        `  chain state  ${SNAPSHOT_WORDS[t.snapshot.status]}${t.snapshot.key ? ` (${t.snapshot.key})` : ''}`,
        `  mining       ${miningWords(t)}`,
        `  daemon RPC   ${t.daemon.url}   (data dir ${t.daemon.dataDir})`,
        `  wallet RPC   ${t.wallet.url}   (wallet ${t.wallet.file})`,
        `  address      ${t.wallet.address}`,
        ...(t.wallet.addresses.carrot ? [`  CN address   ${t.wallet.addresses.cn}`] : []),
        ...(w.login ? [`  RPC login    ${String(w.login)}`] : []),
        `  logs         ${t.workdir}/logs`,
        `  try: curl -s ${t.wallet.url}/json_rpc -d '{"jsonrpc":"2.0","id":1,"method":"get_balance"}'`,
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  }
  // Stay up until a signal (the supervisor stops every process on SIGINT/SIGTERM and exits) or
  // until a program has crashed once more than its restarts allow. Every crash, restart and pid
  // change is told as it happens: on stderr by the testnet, and with --json as a line on stdout.
  const failed = await new Promise<Extract<TestnetEvent, { event: 'failed' }>>((ok) =>
    t.onEvent((e) => {
      if (argv.json) process.stdout.write(`${JSON.stringify(e)}\n`);
      if (e.event === 'failed') ok(e);
    }),
  );
  await control.close();
  await t.stop();
  throw new Error(
    `the testnet is down: ${failed.program} crashed and has no restarts left (${failed.message})${failed.logFile ? `; its log: ${failed.logFile}` : ''}`,
  );
}

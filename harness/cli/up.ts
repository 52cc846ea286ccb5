// `saltnet up`: start a testnet, print how to reach it, stay up until Ctrl-C.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { startTestnet, type Testnet } from '../testnet/testnet.js';
import type { BackendName } from '../testnet/backends.js';

export interface UpArgs {
  backend: BackendName | 'auto';
  binDir?: string;
  difficulty?: number;
  height?: number;
  workdir?: string;
  json: boolean;
  login: 'none' | 'digest';
  walletCreation: 'cli' | 'rpc';
  unlocked?: number;
  timeoutFactor?: number;
  threads?: number;
}

const upBuilder = (y: Argv): Argv<UpArgs> =>
  y
    .option('backend', { choices: ['auto', 'salvium', 'sim', 'monero'] as const, default: 'auto' as const, describe: 'which programs to run (auto: real Salvium if found, else the simulator)' })
    .option('bin-dir', { type: 'string', describe: 'folder with salviumd, salvium-wallet-cli, salvium-wallet-rpc (or SALTNET_BIN_DIR)' })
    .option('difficulty', { type: 'number', describe: 'fixed difficulty (default 500; 1 on monero)' })
    .option('height', { type: 'number', describe: 'mine to this height (default 1201: tokens active; 70 on monero)' })
    .option('unlocked', { type: 'number', describe: 'wait until the wallet holds this many unlocked coins (default 1001 SAL1: a token plus fees)' })
    .option('workdir', { type: 'string', describe: 'keep data dirs, wallets and logs here (default: a temporary folder removed on exit)' })
    .option('login', { choices: ['none', 'digest'] as const, default: 'none' as const, describe: 'wallet RPC login: none, or HTTP Digest with generated credentials' })
    .option('wallet-creation', { choices: ['cli', 'rpc'] as const, default: 'cli' as const, describe: 'create the wallet with the wallet CLI, or with the wallet RPC\'s create_wallet' })
    .option('threads', { type: 'number', describe: 'mining threads (default 1)' })
    .option('json', { type: 'boolean', default: false, describe: 'print one JSON line when ready' }) as unknown as Argv<UpArgs>;

export function summary(t: Testnet): Record<string, unknown> {
  return {
    event: 'ready',
    runId: t.runId,
    backend: t.backend.spec.name,
    binaries: t.backend.source,
    workdir: t.workdir,
    height: t.height,
    daemon: { url: t.daemon.url, pid: t.daemon.pid, dataDir: t.daemon.dataDir, log: t.daemon.logFile, ports: t.daemon.ports },
    wallet: {
      url: t.wallet.url,
      pid: t.wallet.pid,
      file: t.wallet.file,
      address: t.wallet.address,
      addresses: t.wallet.addresses,
      log: t.wallet.logFile,
      ...(t.wallet.credentials ? { login: `${t.wallet.credentials.username}:<in ${t.workdir}/wallets/.rpc-login>` } : {}),
    },
    phasesMs: t.phases,
  };
}

export const upCommand: CommandModule<object, UpArgs> = {
  command: 'up',
  describe: 'start a testnet with a funded wallet and stay up until Ctrl-C',
  builder: upBuilder,
  handler: (argv) => up(argv),
};

async function up(argv: ArgumentsCamelCase<UpArgs>): Promise<void> {
  const log = (l: string): void => void process.stderr.write(`${l}\n`);
  const t = await startTestnet({
    backend: argv.backend,
    ...(argv.binDir ? { binDir: argv.binDir } : {}),
    ...(argv.difficulty !== undefined ? { difficulty: argv.difficulty } : {}),
    ...(argv.height !== undefined ? { height: argv.height } : {}),
    ...(argv.unlocked !== undefined ? { unlocked: BigInt(Math.round(argv.unlocked * (argv.backend === 'monero' ? 1e12 : 1e8))) } : {}),
    ...(argv.workdir ? { workdir: argv.workdir } : {}),
    ...(argv.threads ? { threads: argv.threads } : {}),
    login: argv.login,
    walletCreation: argv.walletCreation,
    log,
  });
  const s = summary(t);
  if (argv.json) process.stdout.write(`${JSON.stringify(s)}\n`);
  else {
    const w = s.wallet as Record<string, unknown>;
    process.stdout.write(
      [
        `saltnet is up (${t.backend.reason}), height ${t.height}`,
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
  // Stay up until a signal; the supervisor stops every process on SIGINT/SIGTERM and exits.
  await new Promise<never>(() => undefined);
}

// Entry point of the simulated `salvium-wallet-rpc` (reference §1.3): real flags, startup and
// shutdown lines, Digest login unless --disable-rpc-login, a single-threaded JSON-RPC server with
// the automatic refresh every 20 s in the same queue.
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadSimConfig } from '../common/config.js';
import { handlerErrorLine, isLoopback } from '../common/format.js';
import { createLogger, type Logger } from '../common/log.js';
import { defaultLogFile } from '../common/default-log.js';
import { promptPassword, readPasswordFile } from '../common/password.js';
import { failParse, OptionError, parseOptions, requireOption, type ParsedOptions } from '../common/options.js';
import { VERSION_LINE } from '../common/version.js';
import { startRpcServer, type RpcServer } from '../http/server.js';
import { createDaemonClient } from '../wallet/daemon-client.js';
import { InvalidPassword } from '../wallet/files.js';
import { daemonAddress, WALLET_OPTIONS_HEADING, WALLET_RPC_OPTIONS } from '../wallet/options.js';
import { refresh } from '../wallet/scan.js';
import { loadWallet, saveWallet, type Wallet } from '../wallet/state.js';
import { walletMethods, type WalletRpcContext } from './methods.js';
import { makeDirs } from '../common/mkdir.js';
import { testStall } from '../common/test-stall.js';
import { dieOn, dieOnUncaught } from '../common/fatal.js';

/** DEFAULT_AUTO_REFRESH_PERIOD: seconds between the server's own refreshes. */
const AUTO_REFRESH_S = 20;

function parse(argv: string[]): ParsedOptions {
  try {
    const opts = parseOptions(argv, WALLET_RPC_OPTIONS);
    if (!opts.has('help') && !opts.has('version')) requireOption(opts, 'rpc-bind-port');
    return opts;
  } catch (err) {
    if (err instanceof OptionError) failParse(err, WALLET_RPC_OPTIONS, WALLET_OPTIONS_HEADING);
    throw err;
  }
}

function die(log: Logger, message: string): never {
  log.log('E', message);
  process.exit(1);
}

/** The wallet's password: --password, --password-file (as wallet2 reads it) or --prompt-for-password. */
async function walletPassword(opts: ParsedOptions, log: Logger): Promise<string> {
  const given = opts.get('password');
  if (given !== undefined && opts.has('password-file'))
    die(log, "Wallet initialization failed: can't specify more than one of --password and --password-file");
  if (given !== undefined) return given;
  if (opts.has('password-file')) {
    try {
      return readPasswordFile(opts.get('password-file') as string);
    } catch (err) {
      die(log, `Wallet initialization failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (opts.has('prompt-for-password')) {
    const pw = await promptPassword('Wallet password', false);
    if (pw !== undefined) return pw;
  }
  die(log, 'Wallet initialization failed: no password specified; use --prompt-for-password to prompt for a password');
}

/**
 * The Digest login (rpc_args.cpp): `--rpc-login user:pass`, or `--rpc-login user` (or RPC_LOGIN in
 * the environment) with the password read like a prompt — one line from stdin when it is not a
 * terminal; none of these: a generated login in salvium-wallet-rpc.<port>.login.
 */
async function rpcLogin(
  opts: ParsedOptions,
  log: Logger,
  rpcPort: number,
): Promise<{ auth?: { username: string; password: string }; loginFile?: string }> {
  if (opts.has('disable-rpc-login')) return {};
  const given = opts.get('rpc-login') ?? (process.env.RPC_LOGIN || undefined);
  if (given !== undefined) {
    const i = given.indexOf(':');
    const password = i === -1 ? await promptPassword('RPC server password', true) : given.slice(i + 1);
    if (password === undefined) die(log, 'Failed to initialize wallet RPC server');
    const username = i === -1 ? given : given.slice(0, i);
    if (!username) {
      log.log('E', 'Username specified with --rpc-login cannot be empty');
      die(log, 'Failed to initialize wallet RPC server');
    }
    return { auth: { username, password } };
  }
  const auth = { username: 'monero', password: randomBytes(16).toString('base64') };
  const loginFile = resolve(`salvium-wallet-rpc.${rpcPort}.login`);
  writeFileSync(loginFile, `${auth.username}:${auth.password}`, { mode: 0o600 });
  log.log('W', `RPC username/password is stored in file salvium-wallet-rpc.${rpcPort}.login`);
  return { auth, loginFile };
}

/** The option combinations the real wallet RPC refuses, with its messages. */
function checkOptions(opts: ParsedOptions, log: Logger): void {
  if (opts.has('testnet') && opts.has('stagenet')) die(log, "Can't specify more than one of --testnet and --stagenet");
  if (opts.has('wallet-file') && opts.has('generate-from-json'))
    die(log, "Can't specify more than one of --wallet-file and --generate-from-json");
  if (opts.has('password-file') && opts.has('wallet-dir'))
    die(log, '--password-file is not allowed in combination with --wallet-dir');
  if (!opts.has('wallet-file') && !opts.has('generate-from-json') && !opts.has('wallet-dir'))
    die(log, 'Must specify --wallet-file or --generate-from-json or --wallet-dir');
  if (opts.has('disable-rpc-login') && opts.has('rpc-login'))
    die(log, 'Cannot specify --disable-rpc-login and --rpc-login');
  if (opts.has('wallet-dir') && opts.has('wallet-file')) {
    log.log('E', 'wallet-dir and wallet-file are incompatible, use only one of them');
    die(log, 'Failed to initialize wallet RPC server');
  }
  if (!opts.has('testnet')) die(log, 'saltnet simulator: only --testnet is simulated');
  if (opts.has('generate-from-json')) die(log, 'saltnet simulator: --generate-from-json is not simulated');
}

/** --wallet-file: the wallet opened with its password, and its first refresh (unless --no-initial-sync). */
async function openWalletFile(
  opts: ReturnType<typeof parse>,
  log: Logger,
  daemon: WalletRpcContext['daemon'],
  scan: WalletRpcContext['scan'],
): Promise<Wallet | null> {
  const walletFile = opts.get('wallet-file');
  if (!walletFile) return null;
  let wallet: Wallet;
  const password = await walletPassword(opts, log);
  log.log('W', 'Loading wallet...');
  try {
    wallet = loadWallet(resolve(walletFile), password);
  } catch (err) {
    if (err instanceof InvalidPassword) die(log, 'Wallet initialization failed: invalid password');
    die(log, `Wallet initialization failed: file not found "${resolve(walletFile)}.keys"`);
  }
  log.log(
    'W',
    `Loaded wallet keys file, with public addresses: \n      CN : ${wallet.keys.cn.address}\n  Carrot : ${wallet.keys.carrot.address}`,
  );
  if (!opts.has('no-initial-sync')) {
    try {
      const r = await refresh(wallet, daemon, scan);
      for (const e of r.events) log.log('W', e);
      saveWallet(wallet);
    } catch (err) {
      log.log('E', `Initial refresh failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  log.log('W', 'Background mining not enabled. Run "set setup-background-mining 1" in salvium-wallet-cli to change.');
  return wallet;
}

/** One background refresh, in the server's queue (never beside a request), unless stopping; not saved (`relay`). */
async function backgroundRefresh(server: RpcServer, ctx: WalletRpcContext, stopping: () => boolean): Promise<void> {
  await server
    .runExclusive(async () => {
      const w = ctx.wallet;
      if (!w || stopping()) return;
      const r = await refresh(w, ctx.daemon, ctx.scan);
      for (const e of r.events) ctx.log.log('W', e);
    })
    .catch(() => undefined);
}

/**
 * The real server's idle handler: every second, a refresh once `auto_refresh`'s period (20 s unless
 * changed; 0: never) has passed since the last one, the first one about a second after start.
 */
function autoRefresh(server: RpcServer, ctx: WalletRpcContext, stopping: () => boolean): NodeJS.Timeout {
  let last = -Infinity;
  let busy = false;
  const timer = setInterval(() => {
    if (busy || stopping() || ctx.autoRefreshPeriod === 0 || Date.now() < last + ctx.autoRefreshPeriod * 1000) return;
    busy = true;
    void backgroundRefresh(server, ctx, stopping).finally(() => {
      last = Date.now();
      busy = false;
    });
  }, 1000);
  timer.unref();
  return timer;
}

/** The test-only stall hook (common/test-stall.ts), as an option of the server when one is set. */
function stallOption(log: (line: string) => void): { stall?: (path: string, body: string) => Promise<void> } {
  const stall = testStall(log);
  return stall ? { stall } : {};
}

/** The wallet RPC server on its port; a port it cannot bind ends the program as the real one does. */
async function serve(
  ctx: WalletRpcContext,
  o: {
    rpcIp: string;
    rpcPort: number;
    auth: Parameters<typeof startRpcServer>[0]['auth'];
    loginFile: string | undefined;
    errorSuffix: string | undefined;
  },
): Promise<RpcServer> {
  try {
    return await startRpcServer({
      host: o.rpcIp,
      port: o.rpcPort,
      jsonRpcMethods: walletMethods(ctx),
      serial: true,
      ...(o.auth ? { auth: o.auth } : {}),
      ...(o.errorSuffix ? { errorSuffix: o.errorSuffix } : {}),
      ...stallOption((l) => ctx.log.log('W', l)),
      // Like an exception escaping a real handler: the caller gets {code: 0, message: ""}, the log says why.
      onError: (err, where) => ctx.log.log('E', handlerErrorLine(err, where)),
    });
  } catch {
    ctx.log.log('F', 'Error starting server: Failed to bind IPv4 (set to required)');
    if (o.loginFile) rmSync(o.loginFile, { force: true });
    return die(ctx.log, 'Failed to initialize wallet RPC server');
  }
}

/** The version lines, then the logger (console and --log-file, or the default file in the cache folder's logs/). */
function startLogging(opts: ParsedOptions): Logger {
  process.stdout.write(
    'This is the RPC Salvium wallet. It needs to connect to a Salvium daemon to work correctly.\n\n',
  );
  process.stdout.write(`${VERSION_LINE}\n`);
  if (opts.has('help') || opts.has('version')) process.exit(0);
  const logFile = resolve(opts.get('log-file') ?? defaultLogFile('salvium-wallet-rpc'));
  process.stdout.write(`Logging to ${logFile}\n`);
  return createLogger({
    file: logFile,
    console: true,
    category: 'wallet.rpc',
    sourceFile: 'wallet_rpc_server.cpp',
    mode: 0o600,
    level: Number(opts.get('log-level') ?? 0) || 0,
  });
}

/** The bind address, refused when external without --confirm-external-bind. */
function bindAddress(opts: ParsedOptions, log: Logger): { rpcIp: string; rpcPort: number } {
  const rpcIp = opts.get('rpc-bind-ip') ?? '127.0.0.1';
  const rpcPort = Number(opts.get('rpc-bind-port'));
  if (!isLoopback(rpcIp) && !opts.has('confirm-external-bind')) {
    log.log(
      'E',
      '--rpc-bind-ip permits inbound unencrypted external connections. Consider SSH tunnel or SSL proxy instead. Override with --confirm-external-bind',
    );
    die(log, 'Failed to initialize wallet RPC server');
  }
  return { rpcIp, rpcPort };
}

async function main(): Promise<void> {
  const opts = parse(process.argv.slice(2));
  const log = startLogging(opts);
  const config = loadSimConfig();
  checkOptions(opts, log);
  const { rpcIp, rpcPort } = bindAddress(opts, log);
  const scan = { tokenMintVisible: config.tokenMintVisible, txPropagationTimeoutS: config.txPropagationTimeoutS };
  const daemon = createDaemonClient(daemonAddress((n) => opts.get(n)));
  const wallet = await openWalletFile(opts, log, daemon, scan);
  const { auth, loginFile } = await rpcLogin(opts, log, rpcPort);
  const walletDir = opts.has('wallet-dir') ? resolve(opts.get('wallet-dir') as string) : undefined;
  if (walletDir) makeDirs(walletDir, 0o700);
  let server: RpcServer | undefined;
  let refreshTimer: NodeJS.Timeout | undefined;
  let stopping = false;
  const ctx: WalletRpcContext = {
    wallet,
    daemon,
    walletDir,
    restricted: opts.has('restricted-rpc'),
    scan,
    log,
    stop: () => void stop(),
    autoRefreshPeriod: AUTO_REFRESH_S,
    setDaemon: (address) => (ctx.daemon = createDaemonClient(address)),
  };
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    if (refreshTimer) clearInterval(refreshTimer);
    await server?.close();
    log.log('W', 'Stopped wallet RPC server');
    let code = 0;
    if (ctx.wallet) {
      log.log('W', 'Saving wallet...');
      try {
        saveWallet(ctx.wallet);
        log.log('W', 'Successfully saved');
      } catch (err) {
        // A full disk: said in one line, and the exit says it failed.
        log.log('E', `Failed to save the wallet: ${(err as Error).message}`);
        code = 1;
      }
    }
    if (loginFile) rmSync(loginFile, { force: true });
    process.exit(code);
  };
  log.log('I', `Binding on ${rpcIp} (IPv4):${rpcPort}`);
  server = await serve(ctx, { rpcIp, rpcPort, auth, loginFile, errorSuffix: config.testErrorSuffix });
  log.log('W', 'Starting wallet RPC server');
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (opts.has('pidfile')) writeFileSync(opts.get('pidfile') as string, `${process.pid}\n`);
  refreshTimer = autoRefresh(server, ctx, () => stopping);
}

dieOnUncaught();
main().catch(dieOn);

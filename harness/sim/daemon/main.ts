// Entry point of the simulated `salviumd`: the real flags, startup and shutdown lines (§1.1, §3)
// and HTTP surface (§2), over the simulated chain kept in the data dir.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { loadSimConfig } from '../common/config.js';
import { handlerErrorLine, isLoopback } from '../common/format.js';
import { createLogger, YELLOW, type Logger } from '../common/log.js';
import { failParse, OptionError, parseOptions, type ParsedOptions } from '../common/options.js';
import { VERSION_LINE } from '../common/version.js';
import { TESTNET_PORTS, TESTNET_VERSION } from '../chain/constants.js';
import { decodeAddress } from '../crypto/address.js';
import { openChainLazily, type LazyChain } from '../chain/store.js';
import type { Block } from '../chain/types.js';
import { startRpcServer, type RpcServer } from '../http/server.js';
import { createMiner } from './miner.js';
import { DAEMON_OPTIONS } from './options.js';
import { daemonJsonRpcMethods } from './json-rpc.js';
import { daemonUriEndpoints, type DaemonContext } from './rpc.js';
import { servedWhileLoading } from './loading.js';
import { newNodeState } from './views.js';
import { dialTargets, startP2p } from './p2p.js';
import { testStall } from '../common/test-stall.js';
import { dieOn, dieOnUncaught, exitFlushed } from '../common/fatal.js';

const STARS = '*'.repeat(70);

/** Options from a config file (`key=value` lines), as boost's config-file parser reads them. */
function configFileArgs(path: string): string[] {
  const args: string[] = [];
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const eq = line.indexOf('=');
    const key = (eq === -1 ? line : line.slice(0, eq)).trim();
    const value = eq === -1 ? '' : line.slice(eq + 1).trim();
    const spec = DAEMON_OPTIONS.find((s) => s.name === key);
    if (spec?.kind === 'flag') {
      if (value === '' || value === '1' || value === 'true') args.push(`--${key}`);
    } else args.push(`--${key}=${value}`);
  }
  return args;
}

function parse(argv: string[]): ParsedOptions {
  try {
    const cli = parseOptions(argv, DAEMON_OPTIONS);
    const conf =
      cli.get('config-file') ?? join(homedir(), '.salvium', cli.has('testnet') ? 'testnet' : '', 'salvium.conf');
    if (!existsSync(conf)) return cli;
    const fromFile = parseOptions(configFileArgs(conf), DAEMON_OPTIONS);
    for (const [k, v] of fromFile.values) if (!cli.values.has(k)) cli.values.set(k, v);
    return cli;
  } catch (err) {
    if (err instanceof OptionError) failParse(err, DAEMON_OPTIONS);
    throw err;
  }
}

function fail(log: Logger, reason: string): never {
  log.log('E', `Exception in main! ${reason}`);
  process.exit(1);
}

/**
 * A chain store whose writes, when they fail (a full disk), end the daemon with one error line, not a stack: `halt`
 * stops what would write more (the miner), the line is flushed, then the daemon exits.
 */
function guardedStore(store: LazyChain['store'], log: Logger, halt: () => void): typeof store {
  let dying = false;
  const guard =
    <A extends unknown[]>(f: (...a: A) => void) =>
    (...a: A): void => {
      if (dying) return;
      try {
        f(...a);
      } catch (err) {
        dying = true;
        halt();
        const e = err as NodeJS.ErrnoException;
        const why = e.code === 'ENOSPC' ? 'No space left on device' : e.code === 'EFBIG' ? 'File too large' : e.message;
        log.log('E', `Failed to write the blockchain to ${e.path ?? store.dir}: ${why}`);
        exitFlushed(1);
      }
    };
  return {
    ...store,
    appendBlock: guard((b) => store.appendBlock(b)),
    rewrite: guard((l) => store.rewrite(l)),
    savePool: guard((l) => store.savePool(l)),
    poolTook: guard((l, txs) => store.poolTook(l, txs)),
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

/** --help, --version and the command-line checks that end the program before it starts; true: done. */
function commandLineDone(opts: ReturnType<typeof parse>): boolean {
  if (opts.has('help') || opts.has('version')) {
    process.stdout.write(`${VERSION_LINE}\n`);
    if (opts.has('help'))
      process.stdout.write(
        `\nUsage: ${basename(process.argv[1] ?? 'salviumd')} [options|settings] [daemon_command...]\n`,
      );
    return true;
  }
  const nets = ['testnet', 'stagenet', 'regtest'].filter((n) => opts.has(n));
  if (nets.length > 1) {
    process.stderr.write("Can't specify more than one of --tesnet and --stagenet and --regtest\n");
    process.exit(1);
  }
  if (opts.positional.length > 0) {
    process.stderr.write(`Unknown command: ${opts.positional[0]}\n`);
    process.exit(1);
  }
  if (nets[0] !== 'testnet') {
    process.stderr.write('saltnet simulator: only --testnet is simulated (mainnet, stagenet and regtest are not)\n');
    process.exit(1);
  }
  return false;
}

/** The settings the daemon runs with, from its options (defaults as the real daemon's). */
function settings(opts: ReturnType<typeof parse>) {
  const dataDir = join(opts.get('data-dir') ?? join(homedir(), '.salvium'), 'testnet');
  const logOpt = opts.get('log-file');
  const logFile = logOpt
    ? dirname(logOpt) === '.' && !logOpt.startsWith('.')
      ? join(dataDir, logOpt)
      : logOpt
    : join(dataDir, 'salvium.log');
  const fixed = BigInt(opts.get('fixed-difficulty') ?? '0');
  return {
    dataDir,
    dbDir: join(dataDir, String(TESTNET_VERSION), 'lmdb'),
    log: createLogger({
      file: logFile,
      console: true,
      category: 'global',
      sourceFile: 'daemon.cpp',
      level: Number(opts.get('log-level') ?? 0) || 0,
    }),
    offline: opts.has('offline') && !opts.has('no-sync'),
    rpcIp: opts.get('rpc-bind-ip') ?? '127.0.0.1',
    rpcPort: Number(opts.get('rpc-bind-port') ?? TESTNET_PORTS.rpc),
    zmqIp: opts.get('zmq-rpc-bind-ip') ?? '127.0.0.1',
    zmqPort: Number(opts.get('zmq-rpc-bind-port') ?? TESTNET_PORTS.zmq),
    difficulty: (): bigint => (fixed > 0n ? fixed : 1n),
  };
}
type Settings = ReturnType<typeof settings>;

/**
 * core::init: the chain opened (its blocks load behind: loading.ts), the option checks it makes. A chain that cannot
 * be read once its load has begun ends the daemon with one error line.
 */
function initCore(opts: ReturnType<typeof parse>, st: Settings): LazyChain {
  const { log } = st;
  log.log('I', 'Initializing core...');
  log.log('I', `Loading blockchain from folder ${st.dbDir} ...`);
  const checkUpdates = opts.get('check-updates');
  if (checkUpdates !== undefined && !['disabled', 'notify', 'download', 'update'].includes(checkUpdates)) {
    log.log('E', `Invalid argument to --dns-versions-check: ${checkUpdates}`);
    fail(log, 'Failed to initialize core');
  }
  const opened = openChainLazily(st.dbDir);
  const chain: LazyChain = {
    ...opened,
    load: () =>
      opened.load().catch((err: unknown) => {
        log.log('E', `Failed to load the blockchain: ${err instanceof Error ? err.message : String(err)}`);
        return exitFlushed(1);
      }),
  };
  log.log('I', 'Loading checkpoints');
  const startMiningAddr = opts.get('start-mining');
  if (startMiningAddr !== undefined) {
    // miner::init (from core::init): the address must parse for this network and not be a subaddress.
    // Like the real daemon, --start-mining then waits for a "synchronized" event that never fires offline.
    const a = decodeAddress(startMiningAddr);
    if (!a || a.coin !== 'salvium' || a.network !== 'testnet' || a.type === 'subaddress') {
      log.log('E', `Target account address ${startMiningAddr} has wrong format, starting daemon canceled`);
      fail(log, 'Failed to initialize core');
    }
  }
  log.log('I', 'Core initialized OK');
  return chain;
}

/** The p2p server and its peers (online only: p2p.ts), then the RPC bind checks. */
async function initNetwork(
  opts: ReturnType<typeof parse>,
  st: Settings,
  ctx: DaemonContext,
  chain: LazyChain,
): Promise<void> {
  const { log } = st;
  log.log('I', 'Initializing p2p server...');
  if (!st.offline) {
    // Peers sync against the whole chain.
    await chain.load();
    try {
      ctx.p2p = await startP2p(ctx, {
        bindIp: opts.get('p2p-bind-ip') ?? '0.0.0.0',
        bindPort: Number(opts.get('p2p-bind-port') ?? TESTNET_PORTS.p2p),
        dial: dialTargets({
          exclusive: opts.getAll('add-exclusive-node'),
          priority: opts.getAll('add-priority-node'),
          peers: opts.getAll('add-peer'),
        }),
        log,
      });
    } catch {
      // The real daemon's two lines for a p2p port it cannot bind (v1.1.3c, observed).
      log.log('F', 'Error starting server: Failed to bind IPv4 (set to required)');
      fail(log, 'Failed to initialize p2p server.');
    }
  }
  log.log('I', 'p2p server initialized OK');
  log.log('I', 'Initializing core RPC server...');
  if (!isLoopback(st.rpcIp) && !opts.has('confirm-external-bind')) {
    log.log(
      'E',
      '--rpc-bind-ip permits inbound unencrypted external connections. Consider SSH tunnel or SSL proxy instead. Override with --confirm-external-bind',
    );
    fail(log, 'Failed to initialize core RPC server.');
  }
  log.log('I', `Binding on ${st.rpcIp} (IPv4):${st.rpcPort}`);
}

/**
 * The requests that ask where the chain stands, each of which lets the fast miner find one more block: a client that
 * mines polls one of them. Others (a wallet's sends and refreshes, a load's traffic) do not: under load a `mine 1`
 * would otherwise find a block per transaction sent while the stop was on its way.
 */
const HEIGHT_POLLS = new Set(['/get_height', '/getheight', '/get_info', '/getinfo', '/mining_status']);

/** The RPC server and the ZMQ socket (a plain listener: nothing is published offline). */
async function startServers(
  opts: ReturnType<typeof parse>,
  st: Settings,
  ctx: DaemonContext,
  sockets: Server[],
  config: ReturnType<typeof loadSimConfig>,
  chain: LazyChain,
): Promise<RpcServer> {
  const { log } = st;
  const stall = testStall((l) => log.log('W', l));
  const jsonRpcMethods = daemonJsonRpcMethods(ctx);
  const uriEndpoints = daemonUriEndpoints(ctx);
  servedWhileLoading(chain, uriEndpoints, jsonRpcMethods, config.chainLoadDelayMs);
  let server: RpcServer;
  try {
    server = await startRpcServer({
      host: st.rpcIp,
      port: st.rpcPort,
      jsonRpcMethods,
      uriEndpoints,
      maxBodyBytes: 1024 * 1024,
      // the fast miner's next block waits for a client to ask where the chain stands (miner.ts)
      onRequest: (path) => {
        if (HEIGHT_POLLS.has(path)) ctx.miner.requested();
      },
      ...(config.testErrorSuffix ? { errorSuffix: config.testErrorSuffix } : {}),
      ...(stall ? { stall } : {}),
      onError: (err, where) => log.log('E', handlerErrorLine(err, where)),
    });
  } catch {
    log.log('F', 'Error starting server: Failed to bind IPv4 (set to required)');
    return fail(log, 'Failed to initialize core RPC server.');
  }
  log.log('I', `core RPC server initialized OK on port: ${st.rpcPort}`);
  if (!opts.has('no-zmq')) {
    const zmq = createServer((s) => s.destroy());
    try {
      await listen(zmq, st.zmqIp, st.zmqPort);
      sockets.push(zmq);
    } catch {
      // The real t_internals constructor throws this text; main() logs it as the reason
      // ("Failed to initialize zmq_pub" is the --zmq-pub failure, not this one).
      await server.close();
      fail(log, `Failed to add TCP socket(${st.zmqIp}:${st.zmqPort}) to ZMQ RPC Server`);
    }
  }
  return server;
}

/** The yellow box the real daemon prints about a second after it started. */
function banner(log: Settings['log'], offline: boolean, delayMs: number): NodeJS.Timeout {
  return setTimeout(() => {
    const third = offline
      ? 'The daemon is running offline and will not attempt to sync to the Salvium network.'
      : 'The daemon will start synchronizing with the network. This may take a long time to complete.';
    const box = [
      '',
      STARS,
      third,
      '',
      'You can set the level of process detailization through "set_log <level|categories>" command,',
      'where <level> is between 0 (no details) and 4 (very verbose), or custom category based levels (eg, *:WARNING).',
      '',
      'Use the "help" command to see the list of available commands.',
      'Use "help <command>" to see a command\'s documentation.',
      STARS,
    ];
    log.log('I', box.join('\n'), { colour: YELLOW });
  }, delayMs);
}

/** The interactive console (without --non-interactive): exit, print_height; EOF stops the daemon. */
function readConsole(log: Settings['log'], chain: LazyChain, shutdown: () => void): void {
  process.stdin.setEncoding('utf8');
  let buffered = '';
  process.stdin.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) !== -1) {
      const cmd = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (cmd === 'exit' || cmd === 'q' || cmd === 'stop_daemon') shutdown();
      else if (cmd === 'print_height') process.stdout.write(`${chain.tip().height}\n`);
      else if (cmd) process.stdout.write(`Unknown command: ${cmd}\n`);
    }
  });
  process.stdin.on('end', () => {
    log.log('I', 'EOF on stdin, exiting');
    shutdown();
  });
}

async function main(): Promise<void> {
  const opts = parse(process.argv.slice(2));
  if (commandLineDone(opts)) return;
  const config = loadSimConfig();
  const st = settings(opts);
  const { log } = st;
  log.log('I', VERSION_LINE);
  if (opts.has('pidfile')) writeFileSync(opts.get('pidfile') as string, `${process.pid}\n`);
  log.log('I', 'Initializing cryptonote protocol...');
  log.log('I', 'Cryptonote protocol initialized OK');
  const chain = initCore(opts, st);
  const { ledger } = chain;
  // The miner, once made: a failed write stops it (guardedStore).
  const halt = { miner: (): void => undefined };
  const store = guardedStore(chain.store, log, () => halt.miner());
  const sockets: Server[] = [];
  let server: RpcServer | undefined;
  let shuttingDown = false;
  let bannerTimer: NodeJS.Timeout | undefined;
  const onBlock = (block: Block): void => {
    store.appendBlock(block);
    if (block.txs.length > 0 || ledger.pool.size > 0) store.savePool(ledger);
  };
  // A block this daemon mined goes to its peers too (one from a peer is relayed by intake.ts).
  const onMined = (block: Block): void => {
    onBlock(block);
    ctx.p2p?.relayBlock(block);
  };
  const miner = createMiner({ ledger, config, log, difficulty: st.difficulty, onBlock: onMined });
  halt.miner = () => miner.stop();
  const shutdown = async (): Promise<void> => {
    if (shuttingDown) return;
    shuttingDown = true;
    if (bannerTimer) clearTimeout(bannerTimer);
    miner.stop();
    // A pool not loaded yet is the one on disk.
    if (chain.loaded()) store.savePool(ledger);
    for (const line of ['p2p net loop stopped', 'Stopping core RPC server...', 'Node stopped.']) log.log('I', line);
    await server?.close();
    log.log('I', 'Deinitializing core RPC server...');
    log.log('I', 'Deinitializing p2p...');
    await Promise.all(sockets.map((s) => new Promise((r) => s.close(() => r(undefined)))));
    await ctx.p2p?.close();
    for (const line of [
      'Deinitializing core...',
      'Stopping cryptonote protocol...',
      'Cryptonote protocol stopped successfully',
    ])
      log.log('I', line);
    process.exit(0);
  };
  const ctx: DaemonContext = {
    ledger,
    miner,
    log,
    dbDir: st.dbDir,
    dataDir: st.dataDir,
    offline: st.offline,
    restricted: opts.has('restricted-rpc'),
    difficulty: st.difficulty,
    startTime: Math.floor(Date.now() / 1000),
    poolChanged: () => store.savePool(ledger),
    poolTook: (txs) => store.poolTook(ledger, txs),
    popped: 0,
    chainRewritten: () => {
      store.rewrite(ledger);
      store.savePool(ledger);
    },
    shutdown: () => void shutdown(),
    blockAdded: onBlock,
    state: newNodeState(),
  };
  await initNetwork(opts, st, ctx, chain);
  server = await startServers(opts, st, ctx, sockets, config, chain);
  for (const line of ['Starting core RPC server...', 'core RPC server started ok', 'Starting p2p net loop...'])
    log.log('I', line);
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  bannerTimer = banner(log, st.offline, config.bannerDelayMs);
  if (!opts.has('non-interactive')) readConsole(log, chain, () => void shutdown());
}

dieOnUncaught();
main().catch(dieOn);

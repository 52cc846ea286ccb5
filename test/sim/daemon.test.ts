// Process-level behaviour of the simulated `salviumd` (reference §1.1, §3, §4, §5, §8, §2.3):
// flags, port conflicts, the interactive console on a closed stdin, the data dir layout,
// shutdown, persistence, the /start_mining checks, hard forks and rewards, and bad input.
// Every daemon runs as a real process started from dist/ and is killed in afterAll/afterEach.
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  freePort,
  height,
  mineTo,
  post,
  rpc,
  spawnSim,
  stopAll,
  tempDir,
  waitFor,
  type Proc,
} from '../helpers/sim.js';
import { encodeAddress, walletFromSeed } from '../../harness/sim/crypto/index.js';
import { fromHex } from '../../harness/sim/crypto/hex.js';
import { rawExchange } from './http/helpers.js';

const VERSION_RE = /^Salvium 'One' \(v1\.1\.3c-\w{9}, based on Monero 0\.18\.4\.0-release\)$/;
const STARS = '*'.repeat(70);
/** Mining as fast as the simulator goes: difficulty 1 and no floor on the block time. */
// Paced (not the default burst-mining 'fast' pace): these tests stop the miner near a height and expect it there.
const FAST = { SALTNET_SIM_PACE: 'steady', SALTNET_SIM_MIN_BLOCK_MS: '0' };

const SHUTDOWN_LINES = [
  'I p2p net loop stopped',
  'I Stopping core RPC server...',
  'I Node stopped.',
  'I Deinitializing core RPC server...',
  'I Deinitializing p2p...',
  'I Deinitializing core...',
  'I Stopping cryptonote protocol...',
  'I Cryptonote protocol stopped successfully',
];

// Two fixed wallets (seeds are arbitrary 32-byte values) and a subaddress of the first.
const W1 = walletFromSeed('11'.repeat(32), 'testnet');
const W2 = walletFromSeed('22'.repeat(32), 'testnet');
const MAINNET_CN = walletFromSeed('11'.repeat(32), 'mainnet').cn.address;
const SUBADDRESS = encodeAddress({
  network: 'testnet',
  family: 'cn',
  type: 'subaddress',
  spendPublicKey: fromHex(W2.cn.spendPublic),
  viewPublicKey: fromHex(W1.cn.viewPublic),
});

let root: string;
beforeAll(() => {
  root = tempDir('saltnet-daemon-test-');
});
afterAll(async () => {
  await stopAll();
  if (root) cleanup(root);
});

let dirCount = 0;
/** A fresh (not yet existing) directory under the test root. */
const newDir = (): string => join(root, `d${dirCount++}`);

/** Console lines without the `YYYY-MM-DD HH:MM:SS.mmm<TAB>` prefix, e.g. `I Node stopped.`. */
const lines = (text: string): string[] =>
  text.split('\n').map((l) => l.replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\t/, ''));

/** Index of each of `wanted` in `have`, each after the previous one; fails on the first one missing. */
function expectInOrder(have: string[], wanted: string[]): number[] {
  const at: number[] = [];
  let from = 0;
  for (const w of wanted) {
    const i = have.indexOf(w, from);
    expect(i, `line missing or out of order: ${JSON.stringify(w)}\nin:\n${have.join('\n')}`).toBeGreaterThanOrEqual(0);
    at.push(i);
    from = i + 1;
  }
  return at;
}

/**
 * A start that failed as the real daemon's does: exit 1, `wanted` among its non-empty output lines in order, the last
 * of them its last line. Their indices, and the lines.
 */
function expectFailedStart(
  r: { code: number | undefined; stdout: string },
  wanted: string[],
): { at: number[]; ls: string[] } {
  expect(r.code).toBe(1);
  const ls = lines(r.stdout).filter((l) => l !== '');
  const at = expectInOrder(ls, wanted);
  expect(ls.at(-1)).toBe(wanted.at(-1));
  return { at, ls };
}

interface Run extends Proc {
  stdout(): string;
  stderr(): string;
}

function spawnDaemon(args: string[], opts: { env?: Record<string, string>; cwd?: string; input?: string } = {}): Run {
  const p = spawnSim('salviumd', args, opts);
  let stdout = '';
  let stderr = '';
  p.proc.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  p.proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return { ...p, stdout: () => stdout, stderr: () => stderr };
}

/** Run to the end (it must end within `ms`) and return its exit code and output. */
async function runToExit(
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string; input?: string } = {},
  ms = 10_000,
) {
  const p = spawnDaemon(args, opts);
  const timer = setTimeout(() => p.proc.kill('SIGKILL'), ms);
  const r = await p.proc;
  clearTimeout(timer);
  expect(r.signal, `did not exit by itself within ${ms} ms:\n${p.output()}`).toBeUndefined();
  return { code: r.exitCode, stdout: p.stdout(), stderr: p.stderr(), all: p.output() };
}

interface Daemon extends Run {
  port: number;
  zmq: number;
  dataDir: string;
}

/** The usual testnet flags on free ports; `--data-dir` is `dataDir`, no --log-file unless in `extra`. */
async function daemonArgs(
  dataDir: string,
  extra: string[] = [],
): Promise<{ args: string[]; port: number; zmq: number }> {
  const port = await freePort();
  const zmq = await freePort();
  return {
    port,
    zmq,
    args: [
      '--testnet',
      '--offline',
      '--non-interactive',
      '--fixed-difficulty',
      '1',
      '--data-dir',
      dataDir,
      '--rpc-bind-ip',
      '127.0.0.1',
      '--rpc-bind-port',
      String(port),
      '--zmq-rpc-bind-port',
      String(zmq),
      ...extra,
    ],
  };
}

async function startAt(
  dataDir: string,
  opts: { extra?: string[]; env?: Record<string, string>; cwd?: string } = {},
): Promise<Daemon> {
  const { args, port, zmq } = await daemonArgs(dataDir, opts.extra);
  const p = spawnDaemon(args, { env: { ...FAST, ...opts.env }, ...(opts.cwd ? { cwd: opts.cwd } : {}) });
  await waitFor(
    'daemon /get_info',
    async () => {
      if (p.proc.exitCode !== null) throw new Error(`daemon exited ${p.proc.exitCode}:\n${p.output()}`);
      return (await post(port, '/get_info', {})).json?.status === 'OK';
    },
    10_000,
    20,
  );
  return { ...p, port, zmq, dataDir };
}

const top = async (port: number): Promise<{ height: number; hash: string }> => {
  const r = (await post(port, '/get_height', {})).json;
  return { height: r.height, hash: r.hash };
};
const headerAt = async (port: number, h: number | string): Promise<any> =>
  rpc(port, 'get_block_header_by_height', { height: h });

/** Occupy a loopback port with a plain TCP listener. */
async function occupy(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.address() as { port: number }).port, server };
}
const release = (s: Server): Promise<void> => new Promise((r) => s.close(() => r()));

describe('salviumd command line (§1, §1.1)', () => {
  afterEach(stopAll);

  it('an unknown option fails like boost: message on stderr, option list, exit 1, nothing started', async () => {
    const dir = newDir();
    const r = await runToExit(['--testnet', '--data-dir', dir, '--bogus']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe("Failed to parse arguments: unrecognised option '--bogus'");
    expect(r.stderr).toContain('--data-dir');
    expect(r.stdout).toBe('');
    expect(existsSync(dir)).toBe(false);
    // `--bogus=1` names only the option, as boost does
    const eq = await runToExit(['--testnet', '--bogus=1']);
    expect(eq.code).toBe(1);
    expect(eq.stderr.split('\n')[0]).toBe("Failed to parse arguments: unrecognised option '--bogus'");
  });

  it("a missing or invalid option value fails with boost's messages, exit 1", async () => {
    const atEnd = await runToExit(['--testnet', '--rpc-bind-port']);
    expect(atEnd.code).toBe(1);
    expect(atEnd.stderr.split('\n')[0]).toBe(
      "Failed to parse arguments: the required argument for option '--rpc-bind-port' is missing",
    );
    const beforeOption = await runToExit(['--testnet', '--data-dir', '--offline']);
    expect(beforeOption.code).toBe(1);
    expect(beforeOption.stderr.split('\n')[0]).toBe(
      "Failed to parse arguments: the required argument for option '--data-dir' is missing",
    );
    const bad = await runToExit(['--testnet', '--rpc-bind-port', 'abc']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.split('\n')[0]).toBe(
      "Failed to parse arguments: the argument ('abc') for option '--rpc-bind-port' is invalid",
    );
    expect(bad.stdout).toBe('');
  });

  it('a repeated option fails as salviumd v1.1.3c does, unless it is one of its lists (the peers)', async () => {
    // The real daemon's lines (salviumd v1.1.3c): the failure, then `Options:` on the next line, exit 1.
    const twice = await runToExit(['--testnet', '--offline', '--fixed-difficulty', '1', '--fixed-difficulty', '2']);
    expect(twice.code).toBe(1);
    expect(twice.stderr.split('\n').slice(0, 2)).toEqual([
      "Failed to parse arguments: option '--fixed-difficulty' cannot be specified more than once",
      'Options:',
    ]);
    const flagTwice = await runToExit(['--testnet', '--offline', '--offline']);
    expect(flagTwice.stderr.split('\n')[0]).toBe(
      "Failed to parse arguments: option '--offline' cannot be specified more than once",
    );
    // boost reads every token before it stores any: an unknown option later on the line is what it reports; and the
    // second occurrence is refused before its value is checked.
    const thenUnknown = await runToExit(['--testnet', '--data-dir', 'a', '--data-dir', 'b', '--bogus']);
    expect(thenUnknown.stderr.split('\n')[0]).toBe("Failed to parse arguments: unrecognised option '--bogus'");
    const badSecond = await runToExit(['--testnet', '--fixed-difficulty', '1', '--fixed-difficulty', 'abc']);
    expect(badSecond.stderr.split('\n')[0]).toBe(
      "Failed to parse arguments: option '--fixed-difficulty' cannot be specified more than once",
    );
    // The repeatable ones parse: with --help it then prints the help and exits 0, as the real daemon does.
    const lists = ['add-peer', 'add-priority-node', 'add-exclusive-node', 'seed-node', 'zmq-pub'];
    const help = await runToExit([
      '--testnet',
      ...lists.flatMap((o) => [`--${o}`, '127.0.0.1:1', `--${o}`, '127.0.0.1:2', `--${o}`, '127.0.0.1:3']),
      '--help',
    ]);
    expect(help.stderr).toBe('');
    expect(help.code).toBe(0);
  });

  it('--testnet --stagenet is refused with the real (misspelt) message, exit 1', async () => {
    const r = await runToExit(['--testnet', '--stagenet', '--offline', '--non-interactive']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("Can't specify more than one of --tesnet and --stagenet and --regtest\n");
    expect(r.stdout).toBe('');
    const three = await runToExit(['--regtest', '--testnet']);
    expect(three.code).toBe(1);
    expect(three.stderr).toBe("Can't specify more than one of --tesnet and --stagenet and --regtest\n");
  });

  it('--version prints the version line only and exits 0', async () => {
    const r = await runToExit(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith('\n')).toBe(true);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stdout.trimEnd()).toMatch(VERSION_RE);
    expect(r.stderr).toBe('');
    const help = await runToExit(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.split('\n')[0]).toMatch(VERSION_RE);
    expect(help.stdout).toContain('Usage:');
  });

  it('--rpc-bind-ip 0.0.0.0 without --confirm-external-bind fails with the real message; with it the daemon starts', async () => {
    const dir = newDir();
    const port = await freePort();
    const args = [
      '--testnet',
      '--offline',
      '--non-interactive',
      '--data-dir',
      dir,
      '--rpc-bind-ip',
      '0.0.0.0',
      '--rpc-bind-port',
      String(port),
      '--no-zmq',
    ];
    const { ls } = expectFailedStart(await runToExit(args), [
      'I Initializing core RPC server...',
      'E --rpc-bind-ip permits inbound unencrypted external connections. Consider SSH tunnel or SSL proxy instead. Override with --confirm-external-bind',
      'E Exception in main! Failed to initialize core RPC server.',
    ]);
    expect(ls.some((l) => l.startsWith('I Binding on') || l.includes('RPC server started ok'))).toBe(false);
    await expect(post(port, '/get_info', {})).rejects.toThrow();

    const ok = spawnDaemon([...args, '--confirm-external-bind'], { env: FAST });
    await waitFor(
      'externally bound daemon',
      async () => (await post(port, '/get_info', {})).json?.status === 'OK',
      10_000,
      20,
    );
    expect(lines(ok.stdout())).toContain(`I Binding on 0.0.0.0 (IPv4):${port}`);
  });
  it('positional words are daemon commands: an unknown one fails with Unknown command, exit 1', async () => {
    const r = await runToExit(['--testnet', 'frobnicate']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Unknown command: frobnicate');
    expect(r.stdout).not.toContain('Initializing');
  });

  it('--start-mining: a bad or sub- address cancels startup; a good one is accepted but never mines offline (§1.1, §10.6)', async () => {
    for (const bad of ['nonsense', SUBADDRESS, MAINNET_CN]) {
      const { args, port } = await daemonArgs(newDir(), ['--start-mining', bad]);
      const r = await runToExit(args);
      expect(r.code, bad).toBe(1);
      const ls = lines(r.stdout).filter((l) => l !== '');
      expectInOrder(ls, [
        'I Initializing core...',
        `E Target account address ${bad} has wrong format, starting daemon canceled`,
      ]);
      expect(ls.at(-1)).toMatch(/^E Exception in main! /);
      expect(ls).not.toContain('I Core initialized OK');
      await expect(post(port, '/get_info', {})).rejects.toThrow();
    }
    const d = await startAt(newDir(), { extra: ['--start-mining', W1.cn.address, '--mining-threads', '1'] });
    await new Promise((r) => setTimeout(r, 300));
    expect((await post(d.port, '/mining_status', {})).json).toMatchObject({ active: false, address: '' });
    expect(await height(d.port)).toBe(1);
  });
});

describe('port conflicts (§1.1, §3)', () => {
  afterEach(stopAll);

  it('RPC port in use: F Error starting server, then E Exception in main!, exit 1', async () => {
    const busy = await occupy();
    try {
      const dir = newDir();
      const zmq = await freePort();
      const r = await runToExit([
        '--testnet',
        '--offline',
        '--non-interactive',
        '--data-dir',
        dir,
        '--rpc-bind-port',
        String(busy.port),
        '--zmq-rpc-bind-port',
        String(zmq),
      ]);
      const {
        at: [bind, fatal],
        ls,
      } = expectFailedStart(r, [
        `I Binding on 127.0.0.1 (IPv4):${busy.port}`,
        'F Error starting server: Failed to bind IPv4 (set to required)',
        'E Exception in main! Failed to initialize core RPC server.',
      ]);
      expect(fatal).toBe((bind as number) + 1);
      expect(ls.some((l) => l.includes('RPC server initialized OK') || l.includes('RPC server started ok'))).toBe(
        false,
      );
      expect(r.stderr).toBe('');
    } finally {
      await release(busy.server);
    }
  });

  it('P2P port in use (online): F Error starting server, then E Exception in main!, exit 1, as real v1.1.3c', async () => {
    const busy = await occupy();
    try {
      const [rpc, zmq] = [await freePort(), await freePort()];
      const r = await runToExit([
        '--testnet',
        '--non-interactive',
        '--data-dir',
        newDir(),
        '--p2p-bind-ip',
        '127.0.0.1',
        '--p2p-bind-port',
        String(busy.port),
        '--rpc-bind-port',
        String(rpc),
        '--zmq-rpc-bind-port',
        String(zmq),
      ]);
      expectFailedStart(r, [
        'I Initializing p2p server...',
        'F Error starting server: Failed to bind IPv4 (set to required)',
        'E Exception in main! Failed to initialize p2p server.',
      ]);
    } finally {
      await release(busy.server);
    }
  });

  it('ZMQ port in use: Failed to add TCP socket(127.0.0.1:<port>) to ZMQ RPC Server, exit 1; --no-zmq avoids it', async () => {
    const busy = await occupy();
    try {
      const dir = newDir();
      const port = await freePort();
      const args = [
        '--testnet',
        '--offline',
        '--non-interactive',
        '--data-dir',
        dir,
        '--rpc-bind-port',
        String(port),
        '--zmq-rpc-bind-port',
        String(busy.port),
      ];
      // the real daemon throws this from its constructor; main() logs it as the reason
      const { ls } = expectFailedStart(await runToExit(args), [
        `I core RPC server initialized OK on port: ${port}`,
        `E Exception in main! Failed to add TCP socket(127.0.0.1:${busy.port}) to ZMQ RPC Server`,
      ]);
      expect(ls.some((l) => l.includes('Starting core RPC server') || l.includes('started ok'))).toBe(false);
      // the RPC port was released again: a daemon with --no-zmq takes the same ports
      const ok = spawnDaemon([...args, '--no-zmq']);
      await waitFor(
        'daemon with --no-zmq',
        async () => (await post(port, '/get_info', {})).json?.status === 'OK',
        10_000,
        20,
      );
      expect(ok.output()).not.toContain('ZMQ RPC Server');
      expect(lines(ok.stdout())).toContain('I core RPC server started ok');
    } finally {
      await release(busy.server);
    }
  });
});

describe('console, data dir, shutdown (§1.1, §3, §10)', () => {
  afterEach(stopAll);

  it('without --non-interactive and with stdin closed: EOF on stdin, exiting, the shutdown lines, exit 0', async () => {
    const dir = newDir();
    const { args } = await daemonArgs(dir);
    const r = await runToExit(args.filter((a) => a !== '--non-interactive'));
    expect(r.code).toBe(0);
    const ls = lines(r.stdout);
    const [, eof] = expectInOrder(ls, ['I core RPC server started ok', 'I EOF on stdin, exiting', ...SHUTDOWN_LINES]);
    expect(ls.slice(eof as number, (eof as number) + 1 + SHUTDOWN_LINES.length)).toEqual([
      'I EOF on stdin, exiting',
      ...SHUTDOWN_LINES,
    ]);
  });

  it('with --non-interactive a closed stdin does not stop the daemon', async () => {
    const d = await startAt(newDir());
    await new Promise((r) => setTimeout(r, 300));
    expect(d.proc.exitCode).toBeNull();
    expect(d.output()).not.toContain('EOF on stdin');
    expect((await post(d.port, '/get_info', {})).json.status).toBe('OK');
  });

  it('--data-dir X: chain in X/testnet/19/lmdb, log in X/testnet/salvium.log', async () => {
    const x = newDir();
    const cwd = tempDir('saltnet-daemon-cwd-');
    try {
      const d = await startAt(x, { cwd });
      await mineTo(d.port, W1.cn.address, 3);
      expect(lines(d.stdout())).toContain(`I Loading blockchain from folder ${join(x, 'testnet', '19', 'lmdb')} ...`);
      expect((await d.stop()).exitCode).toBe(0);
      expect(readdirSync(x)).toEqual(['testnet']);
      expect(readdirSync(join(x, 'testnet', '19', 'lmdb')).length).toBeGreaterThan(0);
      const log = readFileSync(join(x, 'testnet', 'salvium.log'), 'utf8');
      // file format: datetime TAB thread TAB LEVEL TAB category TAB file:line TAB message
      expect(log).toMatch(
        /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\t[^\t]+\tINFO\t[^\t]+\t[^\t]+\tLoading blockchain from folder /m,
      );
      expect(log).toContain('Cryptonote protocol stopped successfully');
      expect(readdirSync(cwd)).toEqual([]);
    } finally {
      cleanup(cwd);
    }
  });

  it('a bare --log-file name lands in X/testnet/, not in the working directory', async () => {
    const x = newDir();
    const cwd = tempDir('saltnet-daemon-cwd-');
    try {
      const d = await startAt(x, { cwd, extra: ['--log-file', 'name.log'] });
      expect((await d.stop()).exitCode).toBe(0);
      expect(readFileSync(join(x, 'testnet', 'name.log'), 'utf8')).toContain('core RPC server started ok');
      expect(existsSync(join(x, 'testnet', 'salvium.log'))).toBe(false);
      expect(readdirSync(cwd)).toEqual([]);
      // a path with a directory part is used as given
      const other = join(root, 'logs', 'given.log');
      const d2 = await startAt(x, { cwd, extra: ['--log-file', other] });
      expect((await d2.stop()).exitCode).toBe(0);
      expect(readFileSync(other, 'utf8')).toContain('core RPC server started ok');
      expect(existsSync(join(x, 'testnet', 'given.log'))).toBe(false);
    } finally {
      cleanup(cwd);
    }
  });

  it('SIGTERM: the §3 startup lines, the offline box, then the shutdown lines in order, exit 0', async () => {
    const x = newDir();
    const d = await startAt(x);
    await waitFor('offline box', async () => d.stdout().includes(STARS), 5_000, 20);
    const r = await d.stop('SIGTERM');
    expect(r).toEqual({ exitCode: 0, signal: undefined });
    const ls = lines(d.stdout()).filter((l) => l !== '');
    expect(ls[0]).toMatch(/^I Salvium 'One' \(v1\.1\.3c-\w{9}, based on Monero 0\.18\.4\.0-release\)$/);
    expect(ls.slice(1, 15)).toEqual([
      'I Initializing cryptonote protocol...',
      'I Cryptonote protocol initialized OK',
      'I Initializing core...',
      `I Loading blockchain from folder ${join(x, 'testnet', '19', 'lmdb')} ...`,
      'I Loading checkpoints',
      'I Core initialized OK',
      'I Initializing p2p server...',
      'I p2p server initialized OK',
      'I Initializing core RPC server...',
      `I Binding on 127.0.0.1 (IPv4):${d.port}`,
      `I core RPC server initialized OK on port: ${d.port}`,
      'I Starting core RPC server...',
      'I core RPC server started ok',
      'I Starting p2p net loop...',
    ]);
    // then the offline box (one log line per box line) and, with nothing in between, the shutdown lines
    expect(ls.slice(15)).toEqual([
      'I ',
      `I ${STARS}`,
      'I The daemon is running offline and will not attempt to sync to the Salvium network.',
      'I ',
      'I You can set the level of process detailization through "set_log <level|categories>" command,',
      'I where <level> is between 0 (no details) and 4 (very verbose), or custom category based levels (eg, *:WARNING).',
      'I ',
      'I Use the "help" command to see the list of available commands.',
      'I Use "help <command>" to see a command\'s documentation.',
      `I ${STARS}`,
      ...SHUTDOWN_LINES,
    ]);
    expect(d.stderr()).toBe('');
  });

  it('/stop_daemon answers OK, then the daemon shuts down the same way and exits 0', async () => {
    const d = await startAt(newDir());
    const r = await post(d.port, '/stop_daemon', {});
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'OK', untrusted: false });
    const end = await d.proc;
    expect(end.exitCode).toBe(0);
    expect(
      lines(d.stdout())
        .filter((l) => l !== '')
        .slice(-SHUTDOWN_LINES.length),
    ).toEqual(SHUTDOWN_LINES);
    await expect(post(d.port, '/get_info', {})).rejects.toThrow();
  });
});

describe('persistence and independence', () => {
  afterEach(stopAll);

  it('a restart on the same data dir keeps the chain; so does a copy of the data dir', async () => {
    const a = newDir();
    let d = await startAt(a);
    await mineTo(d.port, W1.cn.address, 40);
    const before = await top(d.port);
    const mid = (await headerAt(d.port, 17)).result.block_header.hash as string;
    expect(before.height).toBeGreaterThanOrEqual(40);
    expect((await d.stop()).exitCode).toBe(0);

    d = await startAt(a);
    expect(await top(d.port)).toEqual(before);
    expect((await headerAt(d.port, 17)).result.block_header.hash).toBe(mid);
    expect((await rpc(d.port, 'get_info')).result).toMatchObject({
      height: before.height,
      top_block_hash: before.hash,
    });
    expect((await d.stop()).exitCode).toBe(0);

    const copy = newDir();
    cpSync(a, copy, { recursive: true });
    const c = await startAt(copy);
    expect(await top(c.port)).toEqual(before);
    expect((await headerAt(c.port, 17)).result.block_header.hash).toBe(mid);
    // mining on the copy leaves the original alone
    await mineTo(c.port, W2.cn.address, before.height + 5);
    expect((await top(c.port)).height).toBeGreaterThanOrEqual(before.height + 5);
    const orig = await startAt(a);
    expect(await top(orig.port)).toEqual(before);
  });

  it('SIGTERM while mining keeps every block reported before it', async () => {
    const a = newDir();
    const d = await startAt(a);
    expect((await post(d.port, '/start_mining', { miner_address: W1.cn.address, threads_count: 1 })).json.status).toBe(
      'OK',
    );
    await waitFor('some blocks', async () => (await height(d.port)) >= 30, 10_000, 5);
    const seen = await top(d.port);
    expect((await d.stop('SIGTERM')).exitCode).toBe(0);
    expect(lines(d.stdout())).toContain('I Miner thread stopped [0]');
    const again = await startAt(a);
    const now = await top(again.port);
    expect(now.height).toBeGreaterThanOrEqual(seen.height);
    expect((await headerAt(again.port, seen.height - 1)).result.block_header.hash).toBe(seen.hash);
    expect((await post(again.port, '/mining_status', {})).json.active).toBe(false);
  });

  it('two daemons on different ports and dirs are independent', async () => {
    const [a, b] = await Promise.all([startAt(newDir()), startAt(newDir())]);
    const genesisA = await top(a.port);
    expect(await top(b.port)).toEqual(genesisA);
    expect(genesisA.height).toBe(1);
    await mineTo(a.port, W1.cn.address, 20);
    expect((await top(a.port)).height).toBeGreaterThanOrEqual(20);
    expect(await top(b.port)).toEqual(genesisA);
    expect((await post(b.port, '/mining_status', {})).json.active).toBe(false);
    await mineTo(b.port, W2.cn.address, 5);
    const ta = await top(a.port);
    const tb = await top(b.port);
    expect(tb.hash).not.toBe(ta.hash);
    // different miners: block 1 differs between the two chains
    expect((await headerAt(b.port, 1)).result.block_header.hash).not.toBe(
      (await headerAt(a.port, 1)).result.block_header.hash,
    );
    expect((await top(a.port)).height).toBe(ta.height);
  });
});

describe('mining, hard forks, rewards, fees and bad input on one chain', () => {
  const RESTART_DELAY_MS = 1500;
  let d: Daemon;
  const start = async (body: unknown): Promise<string> => {
    const r = await post(d.port, '/start_mining', body);
    expect(r.status).toBe(200);
    expect(r.json.untrusted).toBe(false);
    return r.json.status as string;
  };
  const status = async (): Promise<any> => (await post(d.port, '/mining_status', {})).json;
  const hfVersion = async (): Promise<number> => (await rpc(d.port, 'hard_fork_info')).result.version;

  beforeAll(async () => {
    // a 1 ms floor (~1000 blocks/s) leaves ample room to stop between 1200 and 1300 even on a loaded machine
    d = await startAt(join(root, 'mining'), {
      env: { SALTNET_SIM_RESTART_DELAY_MS: String(RESTART_DELAY_MS), SALTNET_SIM_MIN_BLOCK_MS: '1' },
    });
  });
  afterAll(async () => {
    await d?.stop();
  });

  it('refusals before HF10 in the real order of checks (§4.1)', async () => {
    expect(await status()).toMatchObject({
      active: false,
      address: '',
      speed: 0,
      threads_count: 0,
      pow_algorithm: 'RandomX',
      block_target: 120,
    });
    expect(await hfVersion()).toBe(1);
    expect(await start({ miner_address: 'not an address', threads_count: 1 })).toBe('Failed, wrong address');
    expect(await start({ threads_count: 1 })).toBe('Failed, wrong address');
    expect(await start({ miner_address: MAINNET_CN, threads_count: 1 })).toBe('Failed, wrong address');
    expect(await start({ miner_address: SUBADDRESS, threads_count: 1 })).toBe(
      "Mining to subaddress isn't supported yet",
    );
    expect(await start({ miner_address: W1.carrot.address, threads_count: 1 })).toBe(
      "Mining to Carrot wallet address, but Carrot isn't supported yet",
    );
    const tooMany = 4 * availableParallelism() + 1;
    expect(await start({ miner_address: W1.cn.address, threads_count: tooMany })).toBe(
      'Failed, too many threads relative to CPU cores.',
    );
    // the address is checked before the thread count
    expect(await start({ miner_address: W1.carrot.address, threads_count: tooMany })).toBe(
      "Mining to Carrot wallet address, but Carrot isn't supported yet",
    );
    expect((await post(d.port, '/stop_mining', {})).json).toEqual({ status: 'Mining never started', untrusted: false });
    expect((await status()).active).toBe(false);
    expect(await height(d.port)).toBe(1);
  });

  it('CN mining: OK, Already mining, the status while active, then the miner stops itself at 1100', async () => {
    expect(
      await start({
        miner_address: W1.cn.address,
        threads_count: 2,
        do_background_mining: false,
        ignore_battery: true,
      }),
    ).toBe('OK');
    expect(await start({ miner_address: W1.cn.address, threads_count: 1 })).toBe('Already mining');
    expect(await start({ miner_address: W1.carrot.address, threads_count: 1 })).toBe(
      "Mining to Carrot wallet address, but Carrot isn't supported yet",
    );
    const s = await status();
    expect(s).toMatchObject({
      active: true,
      threads_count: 2,
      address: W1.cn.address,
      status: 'OK',
      is_background_mining_enabled: false,
      pow_algorithm: 'RandomX',
    });
    expect(s.speed).toBeGreaterThan(0);
    expect(s.block_reward).toBeGreaterThan(0);
    expect(s.block_reward).toBeLessThanOrEqual(12382507324);

    await waitFor('miner to stop itself at 1100', async () => (await status()).active === false, 15_000, 10);
    const stoppedAt = Date.now();
    // right after it stopped itself: the Carrot address is not taken yet, the CN address is refused outright
    expect(await start({ miner_address: W1.carrot.address, threads_count: 1 })).toBe('Failed, mining not started');
    expect(await start({ miner_address: W1.cn.address, threads_count: 1 })).toBe(
      'Mining to CryptoNote wallet address, but Carrot wallet address is required',
    );
    expect(await height(d.port)).toBe(1100);
    expect(await hfVersion()).toBe(10); // the next block's version: the top block (1099) is v9
    expect(await status()).toMatchObject({ active: false, address: '', speed: 0, threads_count: 0 });
    const ls = lines(d.stdout());
    const found1099 = ls.findIndex((l) => /^I Found block <[0-9a-f]{64}> at height 1099 for difficulty: 1$/.test(l));
    expect(found1099).toBeGreaterThan(0);
    expectInOrder(ls.slice(found1099), [
      'E mining to CryptoNote wallet address, but Carrot wallet address is required',
      'E Failed to get_block_template(), stopping mining',
    ]);
    expect(ls.some((l) => /at height 1100 /.test(l))).toBe(false);

    const ok = await waitFor(
      'the Carrot address to be taken',
      async () => (await start({ miner_address: W1.carrot.address, threads_count: 1 })) === 'OK',
      10_000,
      50,
    );
    expect(ok).toBe(true);
    // not at once: only after (most of) the restart delay
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(RESTART_DELAY_MS / 2);
    expect(await status()).toMatchObject({ active: true, threads_count: 1, address: W1.carrot.address });
  });

  it("hard_fork_info.version is the next block's; stop_mining twice: OK then Mining never started", async () => {
    await waitFor('height 1200', async () => (await height(d.port)) >= 1200, 15_000, 2);
    expect((await post(d.port, '/stop_mining', {})).json).toEqual({ status: 'OK', untrusted: false });
    const h = await height(d.port);
    expect(h).toBeLessThan(1300);
    expect(await hfVersion()).toBe(11);
    // The version the daemon votes for is the newest it knows, at every height (as recorded).
    expect((await rpc(d.port, 'hard_fork_info')).result).toMatchObject({
      voting: 13,
      earliest_height: 1300,
      enabled: false,
    });
    expect((await post(d.port, '/stop_mining', {})).json).toEqual({ status: 'Mining never started', untrusted: false });
    expect(await height(d.port)).toBe(h);
    await mineTo(d.port, W1.carrot.address, 1301); // block index 1300 exists once the chain has 1301 blocks
    expect((await post(d.port, '/stop_mining', {})).json.status).toBe('Mining never started');
    expect(await hfVersion()).toBe(12);
  });

  // Rewards and sizes as the real v1.1.3c daemon reports them for a chain saltnet built (difficulty 1):
  // the reward is the miner tx's outputs, which from HF11 include the treasury's 25 % and at 1100,
  // 1120, …, 1240 the treasury's 1 300 000 SAL1 mint; every block votes for the newest version (13).
  it('block versions, rewards and sizes at the fork heights, as the real daemon reports them (§4.3, §5)', async () => {
    const expected: Array<[number, number, number | undefined, number | undefined]> = [
      [0, 1, undefined, undefined],
      [1, 1, 12382507324, 91],
      [100, 1, undefined, 91],
      [249, 1, undefined, undefined],
      [250, 2, undefined, undefined],
      [799, 4, undefined, undefined],
      [800, 5, undefined, undefined],
      [814, 5, undefined, 92],
      [815, 6, 12372898622, 93],
      [1099, 9, 12369547955, 93],
      [1100, 10, 130012369536159, 209],
      [1101, 10, 12369524362, 112],
      [1199, 10, 12368368359, 112],
      [1200, 11, 130013141378849, 303],
      [1201, 11, 13141366315, 207],
      [1299, 11, undefined, undefined],
      [1300, 12, undefined, undefined],
    ];
    for (const [h, major, reward, size] of expected) {
      const r = await headerAt(d.port, h);
      expect(r.error, `height ${h}`).toBeUndefined();
      const b = r.result.block_header;
      expect(b.height).toBe(h);
      expect(b.major_version, `major_version at ${h}`).toBe(major);
      if (h > 0) expect(b.minor_version, `minor_version at ${h}`).toBe(13);
      if (reward !== undefined) expect(b.reward, `reward at ${h}`).toBe(reward);
      // Within a byte: the real size also depends on the varint lengths of amounts the simulator rounds.
      if (size !== undefined)
        expect(Math.abs(b.block_size - size), `block_size at ${h}: ${b.block_size}, real ${size}`).toBeLessThanOrEqual(
          1,
        );
    }
  });

  it('get_block_header_by_height beyond the top: -2 with the exact message; get_fee_estimate at ~1300', async () => {
    const count = await height(d.port);
    for (const h of [count, count + 1000]) {
      const r = await post(d.port, '/json_rpc', {
        jsonrpc: '2.0',
        id: 'x',
        method: 'get_block_header_by_height',
        params: { height: h },
      });
      expect(r.json).toEqual({
        error: {
          code: -2,
          message: `Requested block height: ${h} greater than current top block height: ${count - 1}`,
        },
        id: 'x',
        jsonrpc: '2.0',
      });
    }
    expect((await headerAt(d.port, count - 1)).result.block_header.hash).toBe((await top(d.port)).hash);
    const fee = (await rpc(d.port, 'get_fee_estimate')).result;
    expect(fee.status).toBe('OK');
    // Recorded from salviumd v1.1.3c at height 1201: quantization_mask (1) is left out, as KV_SERIALIZE_OPT does.
    expect(fee.fees).toEqual([520, 2100, 8300, 110000]);
    expect(fee.fee).toBe(520);
    expect(fee).not.toHaveProperty('quantization_mask');
  });

  it('bad JSON-RPC envelopes get the real answers (§8)', async () => {
    const env = async (body: string) => {
      const r = await post(d.port, '/json_rpc', body);
      expect(r.status, body).toBe(200);
      return r.json;
    };
    expect(await env('not json')).toEqual({ error: { code: -32700, message: 'Parse error' }, id: 0, jsonrpc: '2.0' });
    expect(await env('[]')).toEqual({ error: { code: -32700, message: 'Parse error' }, id: 0, jsonrpc: '2.0' });
    expect(await env('[{"jsonrpc":"2.0","id":1,"method":"get_info"}]')).toEqual({
      error: { code: -32700, message: 'Parse error' },
      id: 0,
      jsonrpc: '2.0',
    });
    expect(await env('{}')).toEqual({ error: { code: -32600, message: 'Invalid Request' }, id: 0, jsonrpc: '2.0' });
    expect(await env('')).toEqual({ error: { code: -32600, message: 'Invalid Request' }, id: 0, jsonrpc: '2.0' });
    expect(await env('{')).toEqual({ error: { code: -32600, message: 'Invalid Request' }, id: 0, jsonrpc: '2.0' });
    const m5 = await post(d.port, '/json_rpc', '{"method": 5}');
    expect(m5.status).toBe(500);
    expect(m5.json).toBeUndefined();
    expect(await env('{"jsonrpc":"2.0","id":7,"method":"no_such_method"}')).toEqual({
      error: { code: -32601, message: 'Method not found' },
      id: 7,
      jsonrpc: '2.0',
    });
    expect(await env('{"jsonrpc":"2.0","id":"abc","method":"no_such_method"}')).toEqual({
      error: { code: -32601, message: 'Method not found' },
      id: 'abc',
      jsonrpc: '2.0',
    });
    expect(await env('{"jsonrpc":"2.0","method":"no_such_method"}')).toEqual({
      error: { code: -32601, message: 'Method not found' },
      id: '',
      jsonrpc: '2.0',
    });
    // URI-only endpoints are not JSON-RPC methods
    expect((await env('{"jsonrpc":"2.0","id":1,"method":"start_mining"}')).error.code).toBe(-32601);
    // a success without an id answers id 0
    expect(await env('{"jsonrpc":"2.0","method":"get_block_count"}')).toMatchObject({
      id: 0,
      result: { count: await height(d.port), status: 'OK' },
    });
  });

  it('wrong parameter types: -32602 (JSON-RPC) / HTTP 400 (URI); a digit string is a valid uint64 (§2.3)', async () => {
    for (const bad of ['-1', '1.5', '"abc"', 'true', '1e2', '{}', '"-3"', '"0x10"', '" 3"']) {
      const r = await post(
        d.port,
        '/json_rpc',
        `{"jsonrpc":"2.0","id":"q","method":"get_block_header_by_height","params":{"height":${bad}}}`,
      );
      expect(r.json, `height ${bad}`).toEqual({
        error: { code: -32602, message: 'Invalid params' },
        id: 'q',
        jsonrpc: '2.0',
      });
    }
    // an integer beyond uint64 is refused by the JSON reader itself
    expect(
      (
        await post(
          d.port,
          '/json_rpc',
          '{"jsonrpc":"2.0","id":"q","method":"get_block_header_by_height","params":{"height":18446744073709551616}}',
        )
      ).json,
    ).toEqual({ error: { code: -32700, message: 'Parse error' }, id: 0, jsonrpc: '2.0' });
    const max = await rpc(d.port, 'get_block_header_by_height', { height: '18446744073709551615' });
    expect(max.error).toEqual({
      code: -2,
      message: `Requested block height: 18446744073709551615 greater than current top block height: ${(await height(d.port)) - 1}`,
    });
    const three = await headerAt(d.port, '3');
    expect(three.error).toBeUndefined();
    expect(three.result.block_header.height).toBe(3);
    expect(three.result.block_header.hash).toBe((await headerAt(d.port, 3)).result.block_header.hash);
    // fill_pow_hash is a bool: a number is refused
    expect((await rpc(d.port, 'get_block_header_by_height', { height: 3, fill_pow_hash: 1 })).error.code).toBe(-32602);
    // hard_fork_info.version is a uint8: 256 is out of range, a digit string is not accepted for it
    expect((await rpc(d.port, 'hard_fork_info', { version: 256 })).error.code).toBe(-32602);
    expect((await rpc(d.port, 'hard_fork_info', { version: '1' })).error.code).toBe(-32602);

    const uri = async (path: string, body: string): Promise<number> => (await post(d.port, path, body)).status;
    expect(await uri('/start_mining', JSON.stringify({ miner_address: W1.carrot.address, threads_count: 'x' }))).toBe(
      400,
    );
    expect(await uri('/start_mining', JSON.stringify({ miner_address: W1.carrot.address, threads_count: -1 }))).toBe(
      400,
    );
    expect(await uri('/start_mining', JSON.stringify({ miner_address: 5, threads_count: 1 }))).toBe(400);
    expect(
      await uri(
        '/start_mining',
        JSON.stringify({ miner_address: W1.carrot.address, threads_count: 1, do_background_mining: 'no' }),
      ),
    ).toBe(400);
    expect(await uri('/start_mining', 'not json')).toBe(400);
    expect(await uri('/get_info', '[1,2]')).toBe(400);
    expect((await status()).active).toBe(false);
  });

  it('bodies over 1 MiB are refused without an answer; one just under it is served', async () => {
    const pad = (n: number): string =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'get_block_count', params: { pad: 'x'.repeat(n) } });
    const under = await post(d.port, '/json_rpc', pad(1024 * 1024 - 4096));
    expect(under.status).toBe(200);
    expect(under.json.result.status).toBe('OK');
    await expect(post(d.port, '/json_rpc', pad(1024 * 1024 + 16))).rejects.toThrow();
    await expect(post(d.port, '/get_info', JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }))).rejects.toThrow();
    expect((await post(d.port, '/get_info', {})).json.status).toBe('OK');
  });

  it('random garbage never crashes the daemon', async () => {
    let seed = 0x5eed;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      '"',
      ':',
      ',',
      '\\',
      'method',
      'params',
      'id',
      'height',
      'null',
      'true',
      '-',
      '1e999',
      '0x',
      '\u0000',
      '\uffff',
      '"get_block_header_by_height"',
      '9'.repeat(40),
      ' ',
      '\n',
    ];
    const paths = [
      '/json_rpc',
      '/get_info',
      '/start_mining',
      '/stop_mining',
      '/mining_status',
      '/get_height',
      '/getblocks.bin',
      '/send_raw_transaction',
      '/is_key_image_spent',
    ];
    const statuses = new Set<number>();
    for (let i = 0; i < 150; i++) {
      let body = '';
      const len = rand(40);
      for (let j = 0; j < len; j++) body += pieces[rand(pieces.length)];
      const r = await post(d.port, paths[rand(paths.length)] as string, body);
      statuses.add(r.status);
      expect([200, 400, 500]).toContain(r.status);
    }
    // raw bytes, broken request lines and headers straight on the socket
    const bytes = Buffer.alloc(512);
    for (let i = 0; i < bytes.length; i++) bytes[i] = rand(256);
    await rawExchange(d.port, [bytes]);
    await rawExchange(d.port, ['POST /json_rpc HTTP/1.1\r\nContent-Length: 5\r\n\r\n', bytes.subarray(0, 5)]);
    await rawExchange(d.port, ['POST /json_rpc HTTP/1.1\r\nContent-Length: nope\r\n\r\n{}']);
    await rawExchange(d.port, ['GARBAGE\r\n\r\n']);
    expect(statuses.has(200)).toBe(true);
    expect(d.proc.exitCode).toBeNull();
    const info = await post(d.port, '/get_info', {});
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({ status: 'OK', height: await height(d.port), synchronized: true });
    expect(d.stderr()).toBe('');
  });
});

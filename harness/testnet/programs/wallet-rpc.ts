// Start the wallet RPC server on a wallet file: ready when its log says `Starting wallet RPC server`
// and its /json_rpc answers. A real wallet RPC has been seen to die with a segmentation fault
// in a long first scan: any exit during startup is reported with its log tail and the server is
// started again, a bounded number of times.
//
// No secret on its command line: the wallet password comes from `--password-file`, and the Digest
// login as `--rpc-login <user>` with the password written to its stdin, which the real program
// reads when no `:password` follows the user (password_container::prompt reads one line from a
// stdin that is not a terminal).
import { join } from 'node:path';
import { ProcessExitedError } from '../../process/errors.js';
import type { ManagedProcess } from '../../process/managed.js';
import { PortTakenError, takenPorts, withFreshPorts } from '../../process/ports.js';
import { httpProbe, LOOPBACK_PROBE_MS } from '../../process/probes.js';
import { waitUntilReady, type ReadyStrategy } from '../../process/ready.js';
import type { Supervisor } from '../../process/supervisor.js';
import type { Credentials } from '../../rpc/http.js';
import { createWalletClient, type WalletClient } from '../../rpc/wallet.js';
import type { ResolvedBackend } from './binaries.js';
import type { ProgramDefinition } from './program.js';
import { generateSecret, passwordLine } from './secrets.js';
import { ringdbArgs } from '../workdir.js';

export interface WalletRpcHandle {
  proc: ManagedProcess;
  client: WalletClient;
  url: string;
  port: number;
  credentials?: Credentials;
  logFile: string;
  /** The daemon it was started on (`--daemon-address`). */
  daemonUrl: string;
  /** Startup attempts that crashed before this one succeeded. */
  crashes: string[];
}

export interface WalletRpcOptions {
  /** Open this wallet at start (`--wallet-file`), or serve a folder (`--wallet-dir`) for create_wallet/open_wallet. */
  walletFile?: string;
  walletDir?: string;
  /** The wallet password: redacted from the output, and opened with (see WalletRpcDefinitionOptions.open). */
  password: string;
  /** `--password-file` for walletFile (the real program refuses it with walletDir). */
  passwordFile?: string;
  daemonUrl: string;
  workdir: string;
  /** `digest`: HTTP Digest login with generated credentials; `none`: --disable-rpc-login. */
  login: 'none' | 'digest';
  /** Readiness deadline, unscaled: waitUntilReady applies --timeout-factor. */
  timeoutMs: number;
  /** How many crashed starts to retry (default 2). */
  restarts?: number;
  name?: string;
  onCrash?: (message: string) => void;
  /** Bind this port (a restart keeps its endpoint); default: a fresh free port. */
  port?: number;
  /** Reuse these Digest credentials (a restart); default: generated when login is digest. */
  credentials?: Credentials;
}

/** A daemon's URL as the wallet programs take it (`--daemon-address`, `set_daemon`): host and port, no scheme. */
export const daemonAddress = (url: string): string => url.replace(/^https?:\/\//, '');

/** How the wallet RPC finds its wallet: a file (its password from a file) or a folder. */
function walletArgs(o: WalletRpcOptions): string[] {
  if (!o.walletFile) return ['--wallet-dir', o.walletDir ?? join(o.workdir, 'wallets')];
  if (!o.passwordFile)
    throw new Error(
      `starting a wallet RPC on ${o.walletFile} needs its password file (passwordFile): the password never goes on the command line`,
    );
  return ['--wallet-file', o.walletFile, '--password-file', o.passwordFile];
}

/** A start that no restart mends: the same wrong password, missing wallet or refused command line every time. */
export function permanentStartFailure(err: ProcessExitedError): boolean {
  return (
    err.refusal !== undefined || err.tail.some((l) => /invalid password|file not found|initialization failed/i.test(l))
  );
}

export async function startWalletRpc(
  sup: Supervisor,
  be: ResolvedBackend,
  o: WalletRpcOptions,
): Promise<WalletRpcHandle> {
  const name = o.name ?? 'wallet-rpc';
  const crashes: string[] = [];
  const credentials =
    o.credentials ?? (o.login === 'digest' ? { username: 'saltnet', password: generateSecret() } : undefined);
  for (let attempt = 0; ; attempt++) {
    try {
      if (o.port) return await launchWalletRpc(sup, be, o, name, o.port, credentials, crashes);
      return await withFreshPorts(1, ([port]) => launchWalletRpc(sup, be, o, name, port!, credentials, crashes), {
        retries: 3,
        isBindError: (err) => err instanceof PortTakenError,
      });
    } catch (err) {
      // A wrong password or a missing wallet fails the same way every time: do not retry those.
      const permanent = err instanceof ProcessExitedError && permanentStartFailure(err);
      if (!(err instanceof ProcessExitedError) || permanent || attempt >= (o.restarts ?? 2)) throw err;
      const msg = `${name} crashed during startup (${err.exit.signal ?? `exit ${err.exit.code}`}), starting it again (${attempt + 1}/${o.restarts ?? 2})`;
      crashes.push(`${msg}\n${err.tail.slice(-10).join('\n')}`);
      o.onCrash?.(msg);
    }
  }
}

async function launchWalletRpc(
  sup: Supervisor,
  be: ResolvedBackend,
  o: WalletRpcOptions,
  name: string,
  port: number,
  credentials: Credentials | undefined,
  crashes: string[],
): Promise<WalletRpcHandle> {
  const logFile = join(o.workdir, 'logs', `${name}.log`);
  const args = [
    '--testnet',
    ...walletArgs(o),
    '--daemon-address',
    daemonAddress(o.daemonUrl),
    '--rpc-bind-ip',
    '127.0.0.1',
    '--rpc-bind-port',
    String(port),
    '--log-file',
    join(o.workdir, 'logs', `${name}-file.log`),
    '--non-interactive',
    '--trusted-daemon',
    '--rpc-ssl',
    'disabled',
    '--daemon-ssl',
    'disabled',
    ...ringdbArgs(o.workdir),
    ...be.spec.walletArgs,
    // The user alone: the program then reads the password from stdin.
    ...(credentials ? ['--rpc-login', credentials.username] : ['--disable-rpc-login']),
  ];
  const input = credentials ? passwordLine(credentials.password) : undefined;
  const proc = sup.start({
    name,
    command: be.paths.walletRpc,
    args,
    logFile,
    secrets: [o.password, ...(credentials ? [credentials.password] : [])],
    cwd: join(o.workdir, 'wallets'),
    ...(input ? { stdin: 'pipe' as const } : {}),
  });
  if (input) {
    proc.write(input);
    proc.endInput();
  }
  const url = `http://127.0.0.1:${port}`;
  const client = createWalletClient(url, { timeoutMs: 120_000, ...(credentials ? { auth: credentials } : {}) });
  try {
    await waitUntilReady(proc, walletRpcReadiness(url, !!credentials), { timeoutMs: o.timeoutMs });
  } catch (err) {
    await client.close();
    await proc.stop({ graceMs: 2000 });
    if (proc.tail(30).some((l) => /Failed to bind/.test(l))) {
      const taken = await takenPorts({ RPC: port });
      throw new PortTakenError(`${name} could not bind ${taken[0] ?? `its RPC port ${port}`}`, { cause: err });
    }
    throw err;
  }
  return { proc, client, url, port, ...(credentials ? { credentials } : {}), logFile, daemonUrl: o.daemonUrl, crashes };
}

/** A wallet RPC is ready when its log says so and its /json_rpc answers (polled often: it is on this machine). */
export function walletRpcReadiness(url: string, login: boolean): ReadyStrategy[] {
  return [
    { kind: 'log', patterns: [/Starting wallet RPC server/] },
    // With a login, its answer to a request without one is 401 and a Digest challenge.
    httpProbe(`${url}/json_rpc`, {
      name: 'json_rpc',
      answers: login ? [200, 401] : [200],
      everyMs: LOOPBACK_PROBE_MS,
    }),
  ];
}

export interface WalletRpcDefinitionOptions extends Omit<
  WalletRpcOptions,
  'restarts' | 'credentials' | 'name' | 'daemonUrl'
> {
  name: string;
  /** The daemon to start on, asked at each start (its address is known before it answers: NodeSet.firstUrl). */
  daemonUrl: () => string;
  /** The wallet to open after each start when serving a folder (none before it exists). */
  open?: () => { filename: string; password: string } | undefined;
}

/**
 * A wallet RPC as a program of the testnet: the first start takes `port`, else a free one (and generates
 * Digest credentials when asked); a restart keeps port and credentials, and opens its wallet again and refreshes it.
 */
export function defineWalletRpc(
  sup: Supervisor,
  be: ResolvedBackend,
  o: WalletRpcDefinitionOptions,
): ProgramDefinition<WalletRpcHandle> {
  return {
    name: o.name,
    async start(previous) {
      if (previous) await previous.client.close().catch(() => undefined);
      const again = previous
        ? { port: previous.port, ...(previous.credentials ? { credentials: previous.credentials } : {}) }
        : {};
      const h = await startWalletRpc(sup, be, { ...o, daemonUrl: o.daemonUrl(), ...again, restarts: 0 });
      const open = o.open?.();
      if (open) {
        await h.client.call('open_wallet', open);
        // The file holds what the wallet had at its last store (a wallet RPC writes it on store, open, close and stop,
        // not after a transfer or a refresh): a restart after a crash scans what came since before it serves again.
        await h.client.call('refresh');
      }
      return h;
    },
    async beforeStop(h) {
      await h.client.call('store');
    },
    health: async (h) => (await h.client.version()) > 0,
    // Any answer counts: a 401 challenge under a Digest login too.
    probe: (h) => ({ url: `${h.url}/json_rpc`, body: '{"jsonrpc":"2.0","id":0,"method":"get_version"}' }),
    permanent: permanentStartFailure,
  };
}

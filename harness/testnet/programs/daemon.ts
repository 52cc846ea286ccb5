// Start a daemon: `--testnet --offline --non-interactive --fixed-difficulty …` on fresh loopback
// ports, ready when its log says so and its RPC answers, retried on a port race. A node of a testnet
// of several runs without `--offline`, connected only to its peers' link proxies (networkArgs).
import { join } from 'node:path';
import { nodeName } from '../../network/topology.js';
import type { ManagedProcess } from '../../process/managed.js';
import { PortTakenError, takenPorts, withFreshPorts } from '../../process/ports.js';
import { httpProbe, LOOPBACK_PROBE_MS } from '../../process/probes.js';
import { waitUntilReady, type ReadyStrategy } from '../../process/ready.js';
import type { Supervisor } from '../../process/supervisor.js';
import { createDaemonClient, type DaemonClient } from '../../rpc/daemon.js';
import type { RandomxMode } from '../../coin/backends.js';
import type { ResolvedBackend } from './binaries.js';
import type { ProgramDefinition } from './program.js';

export interface DaemonHandle {
  proc: ManagedProcess;
  client: DaemonClient;
  url: string;
  ports: { rpc: number; zmq: number; p2p: number };
  dataDir: string;
  logFile: string;
  /** What it was started with: a testnet that mined its chain state at difficulty 1 restarts it to serve. */
  settings: DaemonSettings;
  /** Full RandomX mode: its dataset, built in the background from the daemon's start (mining waits for it). */
  dataset?: DatasetWatch;
}

/** A full-mode daemon's RandomX dataset: when the daemon started, and when its log said the dataset was ready. */
export interface DatasetWatch {
  startedAt: number;
  readyAt?: number;
}

/** What salviumd logs (category randomx, INFO) when the dataset is built (src/crypto/rx-slow-hash.c). */
const DATASET_READY = /RandomX dataset initialized/;
/** The log level that shows that line and nothing more than level 0 does. */
const DATASET_LOG_LEVEL = ['--log-level', '0,randomx:INFO'];

/** The flags and mode a daemon runs with; two starts with equal settings mine alike. */
export interface DaemonSettings {
  difficulty: number;
  /** RandomX mode (undefined: the backend has no RandomX). */
  randomx?: RandomxMode;
  /** A node of several: where it reaches its peers (their link proxies); undefined: alone, `--offline`. */
  peers?: readonly string[];
}

export function sameSettings(a: DaemonSettings, b: DaemonSettings): boolean {
  return a.difficulty === b.difficulty && a.randomx === b.randomx && a.peers?.join() === b.peers?.join();
}

/** The program name of node `i`: `daemon` for n0 (as a testnet of one node), `daemon-n1`, … */
export const nodeProgram = (i: number): string => (i === 0 ? 'daemon' : `daemon-${nodeName(i)}`);

/** The data dir of node `i` in a workdir: `daemon/` for n0, `daemon-n1/`, … */
export const nodeDataDir = (workdir: string, i: number): string => join(workdir, nodeProgram(i));

/**
 * The flags that put a node in a network of its peers instead of `--offline` (docs/multi-node.md says how each was
 * established on salviumd v1.1.3c): it connects only to these addresses, its link proxies
 * (`--add-exclusive-node`: no seed nodes, no peer list), never announces its own port (`--hide-my-port`: no pingback
 * around the proxy), takes more than one connection from 127.0.0.1 (every proxy connects from there; the default is
 * one), and asks no DNS server for checkpoints.
 */
export function networkArgs(peers: readonly string[]): string[] {
  return [
    ...peers.flatMap((p) => ['--add-exclusive-node', p]),
    '--max-connections-per-ip',
    String(2 * peers.length + 2),
    '--hide-my-port',
    '--disable-dns-checkpoints',
  ];
}

export interface DaemonOptions extends DaemonSettings {
  workdir: string;
  /** Which node of the testnet (default 0): its program name, data dir and logs follow. */
  node?: number;
  /** Readiness deadline, unscaled: waitUntilReady applies --timeout-factor. */
  timeoutMs: number;
  extraArgs?: string[];
  env?: Record<string, string>;
  /** Start on these ports (a restart keeps its endpoints); default: fresh free ports. */
  ports?: DaemonHandle['ports'];
  /**
   * Try these ports first (picked ahead, so that a wallet RPC can be told the daemon's address before it answers);
   * taken meanwhile by another program, fresh ones are picked as without.
   */
  plannedPorts?: DaemonHandle['ports'];
}

/** Lines the daemon prints when a port it needs is taken. */
const BIND_FAILURE = /Failed to bind|Failed to add TCP socket|Address already in use/;

/** The niceness of a daemon in full RandomX mode (see launchDaemon). */
export const FULL_MODE_NICE = 10;

export function daemonArgs(o: DaemonOptions, ports: DaemonHandle['ports']): string[] {
  const node = o.node ?? 0;
  return [
    '--testnet',
    ...(o.peers ? [] : ['--offline']),
    '--non-interactive',
    '--fixed-difficulty',
    String(o.difficulty),
    '--data-dir',
    nodeDataDir(o.workdir, node),
    '--rpc-bind-ip',
    '127.0.0.1',
    '--rpc-bind-port',
    String(ports.rpc),
    '--zmq-rpc-bind-port',
    String(ports.zmq),
    '--p2p-bind-ip',
    '127.0.0.1',
    '--p2p-bind-port',
    String(ports.p2p),
    '--log-file',
    join(o.workdir, 'logs', `${nodeProgram(node)}-file.log`),
    '--no-igd',
    // Full mode: the line that says the dataset is built (unless the caller sets a log level of its own).
    ...(o.randomx === 'full' && !o.extraArgs?.some((a) => a.startsWith('--log-level')) ? DATASET_LOG_LEVEL : []),
    ...(o.peers ? networkArgs(o.peers) : []),
    ...(o.extraArgs ?? []),
  ];
}

export async function startDaemon(sup: Supervisor, be: ResolvedBackend, o: DaemonOptions): Promise<DaemonHandle> {
  if (o.ports) return launchDaemon(sup, be, o, o.ports);
  if (o.plannedPorts) {
    const planned = await launchDaemon(sup, be, o, o.plannedPorts).catch((err: unknown) => {
      if (err instanceof PortTakenError) return undefined;
      throw err;
    });
    if (planned) return planned;
  }
  return withFreshPorts(3, ([rpc, zmq, p2p]) => launchDaemon(sup, be, o, { rpc: rpc!, zmq: zmq!, p2p: p2p! }), {
    retries: 3,
    isBindError: (err) => err instanceof PortTakenError,
  });
}

async function launchDaemon(
  sup: Supervisor,
  be: ResolvedBackend,
  o: DaemonOptions,
  ports: DaemonHandle['ports'],
): Promise<DaemonHandle> {
  const name = nodeProgram(o.node ?? 0);
  const logFile = join(o.workdir, 'logs', `${name}.log`);
  // In full RandomX mode the daemon builds its 2 GiB dataset on every core from its start: niced, so
  // that the wallet programs starting meanwhile are not slowed by it (it has the cores once they idle).
  const [command, args] =
    o.randomx === 'full'
      ? ['nice', ['-n', String(FULL_MODE_NICE), be.paths.daemon, ...daemonArgs(o, ports)]]
      : [be.paths.daemon, daemonArgs(o, ports)];
  const proc = sup.start({
    name,
    command,
    args,
    env: { ...(o.randomx ? be.spec.randomx?.[o.randomx] : {}), ...o.env },
    logFile,
  });
  const dataset = o.randomx === 'full' ? watchDataset(proc) : undefined;
  const url = `http://127.0.0.1:${ports.rpc}`;
  const client = createDaemonClient(url, { timeoutMs: 30_000 });
  try {
    await waitUntilReady(proc, daemonReadiness(be, url), { timeoutMs: o.timeoutMs });
  } catch (err) {
    await client.close();
    await proc.stop({ graceMs: 2000 });
    if (proc.tail(30).some((l) => BIND_FAILURE.test(l))) {
      const taken = await takenPorts({ RPC: ports.rpc, ZMQ: ports.zmq, P2P: ports.p2p });
      throw new PortTakenError(
        `the daemon could not bind ${taken.length ? taken.join(', ') : `one of its ports ${ports.rpc}/${ports.zmq}/${ports.p2p}`}`,
        { cause: err },
      );
    }
    throw err;
  }
  const settings: DaemonSettings = {
    difficulty: o.difficulty,
    ...(o.randomx ? { randomx: o.randomx } : {}),
    ...(o.peers ? { peers: o.peers } : {}),
  };
  const dataDir = nodeDataDir(o.workdir, o.node ?? 0);
  return { proc, client, url, ports, dataDir, logFile, settings, ...(dataset ? { dataset } : {}) };
}

/**
 * A daemon is ready when its log says so and its /get_height answers (polled often: it is on this machine): the
 * cheapest answer, which a simulated daemon gives before its chain has loaded (get_info waits for it).
 */
export function daemonReadiness(be: ResolvedBackend, url: string): ReadyStrategy[] {
  return [
    { kind: 'log', patterns: be.spec.daemonReadyLines },
    httpProbe(`${url}/get_height`, { name: 'get_height', everyMs: LOOPBACK_PROBE_MS }),
  ];
}

/** Note when the daemon's log says its RandomX dataset is built. */
function watchDataset(proc: ManagedProcess): DatasetWatch {
  const w: DatasetWatch = { startedAt: Date.now() };
  const off = proc.onLine((line) => {
    if (!DATASET_READY.test(line)) return;
    w.readyAt = Date.now();
    off();
  });
  return w;
}

/**
 * The daemon as a program of the testnet: a restart keeps its ports and data dir, and takes the
 * settings `settings()` gives then (a testnet switches from building its chain state to serving). Its first start
 * tries the ports `planned()` gives, if any.
 */
export function defineDaemon(
  sup: Supervisor,
  be: ResolvedBackend,
  o: Omit<DaemonOptions, keyof DaemonSettings>,
  settings: () => DaemonSettings,
  planned: () => DaemonHandle['ports'] | undefined = () => undefined,
): ProgramDefinition<DaemonHandle> {
  return {
    name: nodeProgram(o.node ?? 0),
    async start(previous) {
      if (previous) await previous.client.close().catch(() => undefined);
      const now = { ...o, ...settings() };
      if (previous) return startDaemon(sup, be, { ...now, ports: previous.ports });
      const plannedPorts = planned();
      return startDaemon(sup, be, plannedPorts ? { ...now, plannedPorts } : now);
    },
    health: async (h) => (await h.client.getInfo()).status === 'OK',
    probe: (h) => ({ url: `${h.url}/get_height`, body: '{}' }),
  };
}

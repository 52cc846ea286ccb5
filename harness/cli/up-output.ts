// What `saltnet up` prints when the testnet is ready: one JSON line (`--json`), or the same facts
// for people. `up --detach` prints them from the JSON line its background `up` wrote.
import type { Testnet } from '../testnet/testnet.js';
import { describeAutomine, type AutomineMode } from '../testnet/mining/automine.js';

export interface ReadySummary {
  event: 'ready';
  runId: string;
  backend: string;
  /** Why this backend (e.g. "auto: no salviumd on PATH, picked the built-in simulator (sim backend)"). */
  backendReason: string;
  binaries: unknown;
  workdir: string;
  height: number;
  snapshot: Testnet['snapshot'];
  mining: Testnet['mining'];
  /** How blocks come without `saltnet mine` (absent in the line of an older saltnet). */
  automine?: AutomineMode;
  daemon: { url: string; pid: number; dataDir: string; log: string; ports: Testnet['daemon']['ports'] };
  /** Every node (n0 is `daemon`), each with its RPC, pid, data dir, log and ports. */
  nodes: { name: string; url: string; pid: number; dataDir: string; log: string; ports: Testnet['daemon']['ports'] }[];
  /** The links between the nodes (none for one node). */
  links: ReturnType<Testnet['links']>;
  wallet: {
    url: string;
    pid: number;
    file: string;
    address: string;
    addresses: { cn: string; carrot?: string };
    log: string;
    login?: string;
  };
  miner: Testnet['miner'];
  phasesMs: Record<string, number>;
  /** `up --detach`: the pid of the `up` that owns the testnet in the background. */
  ownerPid?: number;
  /** `up --ui`: the explorer's address. */
  ui?: string;
}

export function summary(t: Testnet): ReadySummary {
  return {
    event: 'ready',
    runId: t.runId,
    backend: t.backend.spec.name,
    backendReason: t.backend.reason,
    binaries: t.backend.source,
    workdir: t.workdir,
    height: t.readyHeight,
    snapshot: t.snapshot,
    mining: t.mining,
    automine: t.automine(),
    daemon: {
      url: t.daemon.url,
      pid: t.daemon.pid,
      dataDir: t.daemon.dataDir,
      log: t.daemon.logFile,
      ports: t.daemon.ports,
    },
    nodes: t.nodes.map((n) => ({
      name: n.name,
      url: n.url,
      pid: n.pid,
      dataDir: n.dataDir,
      log: n.logFile,
      ports: n.ports,
    })),
    links: t.links(),
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

const SNAPSHOT_WORDS: Record<string, string> = {
  hit: 'restored from the cache',
  built: 'built and saved to the cache',
  rebuilt: 'rebuilt (the cached one was corrupt) and saved',
  reused: 'continued from the workdir',
  off: 'mined from scratch (cache off)',
};

/**
 * "difficulty 500 (the chain state to height 1201 was mined at difficulty 1), saltnet's RandomX miner, 2 threads", or
 * with the daemon's own miner its RandomX mode: "…, RandomX full, 2 threads".
 */
export function miningWords(s: Pick<ReadySummary, 'mining' | 'snapshot'>): string {
  const m = s.mining;
  const p = s.snapshot.prefix;
  const prefix =
    p && p.difficulty !== m.difficulty
      ? ` (the chain state to height ${p.height} was mined at difficulty ${p.difficulty})`
      : '';
  const how = m.miner === 'saltnet' ? ", saltnet's RandomX miner" : m.randomx ? `, RandomX ${m.randomx}` : '';
  return `difficulty ${m.difficulty}${prefix}${how}, ${m.threads} thread${m.threads === 1 ? '' : 's'}`;
}

/** The ready summary for people; `stop` says how to stop it (Ctrl-C, or saltnet down for a detached one). */
export function humanReady(s: ReadySummary, stop: string): string {
  return [
    `saltnet is up (${s.backendReason}), height ${s.height}`,
    `  chain state  ${SNAPSHOT_WORDS[s.snapshot.status]}${s.snapshot.key ? ` (${s.snapshot.key})` : ''}`,
    `  mining       ${miningWords(s)}`,
    ...(s.automine ? [`  automine     ${describeAutomine(s.automine)}`] : []),
    ...(s.nodes.length > 1
      ? s.nodes.map((n) => `  node ${n.name.padEnd(7)} ${n.url}   (pid ${n.pid}, data dir ${n.dataDir})`)
      : [`  daemon RPC   ${s.daemon.url}   (data dir ${s.daemon.dataDir})`]),
    ...(s.links.length
      ? [`  links        ${s.links.map((l) => l.link).join(', ')}: all open (saltnet partition / heal)`]
      : []),
    `  wallet RPC   ${s.wallet.url}   (wallet ${s.wallet.file})`,
    `  address      ${s.wallet.address}`,
    ...(s.wallet.addresses.carrot ? [`  CN address   ${s.wallet.addresses.cn}`] : []),
    ...(s.wallet.login ? [`  RPC login    ${s.wallet.login}`] : []),
    `  logs         ${s.workdir}/logs`,
    ...(s.ui ? [`  explorer     ${s.ui}`] : []),
    `  try: curl -s ${s.wallet.url}/json_rpc -d '{"jsonrpc":"2.0","id":1,"method":"get_balance"}'`,
    stop,
    '',
  ].join('\n');
}

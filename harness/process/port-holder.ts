// Who holds a TCP port, where Linux tells: /proc/net/tcp and tcp6 list the listening sockets with
// their inodes, and /proc/<pid>/fd links name the socket inodes each process holds
// (`socket:[12345]`). Another user's processes cannot be looked into: then only the port is known.
// Nothing here is parsed with a library: the format is two fixed tables of hexadecimal fields.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { listRuns } from './registry.js';

export interface PortHolder {
  pid: number;
  /** The program's name (/proc/<pid>/comm), e.g. salviumd, node. */
  program: string;
  /** Its command line, for the message (cut at 120 characters). */
  commandLine: string;
  /** The saltnet run it belongs to (the run registry lists it), if one does. */
  runId?: string;
}

/** TCP state 0A is LISTEN. */
const LISTEN = '0A';

/** The inodes of the sockets listening on `port` (any address, IPv4 or IPv6). */
export function listeningInodes(port: number, tables = ['/proc/net/tcp', '/proc/net/tcp6']): Set<string> {
  const out = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of tables) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const [, local, , state, , , , , , inode] = f;
      if (!local || state !== LISTEN || !inode || inode === '0') continue;
      if (local.slice(local.lastIndexOf(':') + 1) === hexPort) out.add(inode);
    }
  }
  return out;
}

/** The process holding one of these socket inodes, if /proc lets us see it. */
export function processHolding(inodes: Set<string>, procDir = '/proc'): PortHolder | undefined {
  if (inodes.size === 0) return undefined;
  const wanted = new Set([...inodes].map((i) => `socket:[${i}]`));
  let pids: string[];
  try {
    pids = readdirSync(procDir).filter((n) => /^\d+$/.test(n));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`${procDir}/${pid}/fd`);
    } catch {
      continue; // gone, or another user's
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`${procDir}/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (wanted.has(target)) return describePid(Number(pid), procDir);
    }
  }
  return undefined;
}

function describePid(pid: number, procDir: string): PortHolder {
  const read = (f: string): string => {
    try {
      return readFileSync(`${procDir}/${pid}/${f}`, 'utf8');
    } catch {
      return '';
    }
  };
  const program = read('comm').trim() || '?';
  const line = read('cmdline').split('\0').filter(Boolean).join(' ');
  const commandLine = line.length > 120 ? `${line.slice(0, 119)}…` : line;
  const run = listRuns().find((r) => r.processes.some((p) => p.pid === pid) || r.ownerPid === pid);
  return { pid, program, commandLine, ...(run ? { runId: run.runId } : {}) };
}

/** Who listens on `port`, where /proc tells. */
export function portHolder(port: number): PortHolder | undefined {
  return processHolding(listeningInodes(port));
}

export interface WantedPort {
  port: number;
  /** What it is for, e.g. "the daemon's RPC". */
  what: string;
}

/** "port 29081 (the daemon's RPC) is taken by pid 4242, salviumd (saltnet run …): salviumd --testnet …". */
export function describeTaken(p: WantedPort, holder: PortHolder | undefined): string {
  const by = holder
    ? `by pid ${holder.pid}, ${holder.program}${holder.runId ? ` (saltnet run ${holder.runId})` : ''}${holder.commandLine && holder.commandLine !== holder.program ? `: ${holder.commandLine}` : ''}`
    : 'by a process this user cannot see (another user, or a container)';
  return `port ${p.port} (${p.what}) is taken ${by}`;
}

export class PortsTakenError extends Error {
  constructor(
    readonly taken: { port: WantedPort; holder?: PortHolder }[],
    words: { prefix?: string; suffix?: string } = {},
  ) {
    const lines = taken.map((t) => `  ${describeTaken(t.port, t.holder)}`);
    super(
      `${words.prefix ?? ''}${taken.length === 1 ? 'a port is' : `${taken.length} ports are`} taken:\n${lines.join('\n')}${words.suffix ?? ''}`,
    );
    this.name = 'PortsTakenError';
  }
}
